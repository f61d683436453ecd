import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  image: string | null;
  password_hash: string | null;
  email_verified_at: Date | null;
  is_active: boolean;
  failed_login_count: number;
  locked_until: Date | null;
  ver: number;
  must_change_password: boolean;
  custom: Record<string, unknown>;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface RoleRef {
  id: string;
  name: string;
  slug: string;
}

export type AccountRow = UserRow & { roles: RoleRef[] };

const ACCOUNT_SELECT = `
  SELECT u.*, COALESCE(
    (SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'slug', r.slug) ORDER BY r.level DESC, r.name)
       FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id),
    '[]'::json) AS roles
  FROM users u`;

/** All SQL on users and their refresh tokens. Methods take the EntityManager of the caller's transaction. */
@Injectable()
export class UsersRepository {
  async findAccountById(em: EntityManager, id: string): Promise<AccountRow | null> {
    const found = await rows<AccountRow>(em, `${ACCOUNT_SELECT} WHERE u.id = $1`, [id]);
    return found[0] ?? null;
  }

  async findAccountByEmail(em: EntityManager, email: string): Promise<AccountRow | null> {
    const found = await rows<AccountRow>(em, `${ACCOUNT_SELECT} WHERE lower(u.email) = lower($1)`, [email]);
    return found[0] ?? null;
  }

  async anyUserExists(em: EntityManager): Promise<boolean> {
    const found = await rows<{ exists: boolean }>(em, `SELECT EXISTS (SELECT 1 FROM users) AS exists`);
    return found[0].exists;
  }

  async insertUser(
    em: EntityManager,
    u: { email: string; name: string; passwordHash: string | null; verified: boolean; isActive?: boolean },
  ): Promise<string> {
    const found = await rows<{ id: string }>(
      em,
      `INSERT INTO users (email, name, password_hash, email_verified_at, is_active)
       VALUES ($1, $2, $3, CASE WHEN $4::boolean THEN now() END, $5) RETURNING id`,
      [u.email, u.name, u.passwordHash, u.verified, u.isActive ?? true],
    );
    return found[0].id;
  }

  async addRole(em: EntityManager, userId: string, roleId: string): Promise<void> {
    await em.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      userId,
      roleId,
    ]);
  }

  async updateProfile(
    em: EntityManager,
    id: string,
    p: { name?: string; image?: string | null; custom?: Record<string, unknown> },
  ): Promise<void> {
    await em.query(
      `UPDATE users SET
         name = COALESCE($2, name),
         image = CASE WHEN $3::boolean THEN $4 ELSE image END,
         custom = custom || COALESCE($5::jsonb, '{}'::jsonb),
         updated_at = now()
       WHERE id = $1`,
      [
        id,
        p.name ?? null,
        p.image !== undefined,
        p.image ?? null,
        p.custom ? JSON.stringify(p.custom) : null,
      ],
    );
  }

  async setActive(em: EntityManager, id: string, active: boolean): Promise<boolean> {
    const found = await rows<unknown>(
      em,
      `UPDATE users SET is_active = $2, updated_at = now() WHERE id = $1 RETURNING id`,
      [id, active],
    );
    return found.length > 0;
  }

  /** Raises the account counter (ends every access token) and deletes every refresh token. */
  async revokeSessions(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE users SET ver = ver + 1, updated_at = now() WHERE id = $1`, [id]);
    await em.query(`DELETE FROM refresh_tokens WHERE user_id = $1`, [id]);
  }
}
