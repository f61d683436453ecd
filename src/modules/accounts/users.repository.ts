import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { containsPattern, ListQuery } from '../../common/pagination';
import { lockKey, xactLock } from '../../database/locks';
import { pagedRows, rows } from '../../database/sql';
import type { RoleRef, UserSortField } from './accounts.types';

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
  step_ver: number;
  must_change_password: boolean;
  custom: Record<string, unknown>;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type AccountRow = UserRow & { roles: RoleRef[]; sessions: string[] };

/** What the users list reads of an account: what a user record shows, never password material. */
export type ListedAccountRow = Pick<
  AccountRow,
  | 'id'
  | 'email'
  | 'name'
  | 'image'
  | 'is_active'
  | 'email_verified_at'
  | 'custom'
  | 'last_login_at'
  | 'created_at'
  | 'updated_at'
  | 'roles'
>;

const SORT_COLUMNS: Record<UserSortField, string> = {
  email: 'lower(u.email)',
  name: 'lower(u.name)',
  createdAt: 'u.created_at',
  lastLoginAt: 'u.last_login_at',
};

const ACCOUNT_COLUMNS = `
  u.*, COALESCE(
    (SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'slug', r.slug) ORDER BY r.level DESC, r.name)
       FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id),
    '[]'::json) AS roles,
  -- The live sessions, for the account check of every access token's sid.
  ARRAY(SELECT t.session_id::text FROM refresh_tokens t
         WHERE t.user_id = u.id AND t.consumed_at IS NULL AND t.expires_at > now()) AS sessions`;
const ACCOUNT_SELECT = `SELECT ${ACCOUNT_COLUMNS} FROM users u`;

/** A listed account (ListedAccountRow), read from the page (`u`) and PAGE_ROLES. */
const LIST_COLUMNS = `u.id, u.email, u.name, u.image, u.is_active, u.email_verified_at, u.custom, u.last_login_at,
  u.created_at, u.updated_at, COALESCE(page_roles.roles, '[]'::json) AS roles`;

/**
 * The roles of every account on the page (the CTE `page`), in one join and aggregate over the
 * page rather than a subquery per row; ordered as ACCOUNT_COLUMNS orders them.
 */
const PAGE_ROLES = `LEFT JOIN (
    SELECT ur.user_id,
           json_agg(json_build_object('id', r.id, 'name', r.name, 'slug', r.slug) ORDER BY r.level DESC, r.name) AS roles
      FROM user_roles ur JOIN roles r ON r.id = ur.role_id
     WHERE ur.user_id IN (SELECT id FROM page)
     GROUP BY ur.user_id
  ) page_roles ON page_roles.user_id = u.id`;

/**
 * All SQL on users (profile, roles, activation, login counters, passwords); the refresh tokens
 * only where an account write ends its sessions. Methods take the EntityManager of the caller's
 * transaction. Not exported: other modules go through AccountsService.
 */
@Injectable()
export class UsersRepository {
  async findAccountById(em: EntityManager, id: string): Promise<AccountRow | null> {
    const found = await rows<AccountRow>(em, `${ACCOUNT_SELECT} WHERE u.id = $1`, [id]);
    return found[0] ?? null;
  }

  /**
   * The account, its row locked until commit against every other writer (FOR NO KEY UPDATE):
   * what the session-minting paths hold, so a session-ending write is ordered before or after.
   */
  async lockAccountById(em: EntityManager, id: string): Promise<AccountRow | null> {
    const locked = await rows<{ id: string }>(em, `SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`, [
      id,
    ]);
    return locked.length ? this.findAccountById(em, id) : null;
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

  /**
   * Raises the account counter (ends every access token) and the step counter (voids paused
   * logins and emailed sign-in links), deletes every refresh token and paused login.
   */
  async revokeSessions(em: EntityManager, id: string): Promise<void> {
    await em.query(
      `UPDATE users SET ver = ver + 1, step_ver = step_ver + 1, updated_at = now() WHERE id = $1`,
      [id],
    );
    await em.query(`DELETE FROM refresh_tokens WHERE user_id = $1`, [id]);
    await em.query(`DELETE FROM pending_logins WHERE user_id = $1`, [id]);
  }

  /**
   * When the owner of a live session last proved a factor in it (its sign-in or a
   * reauthentication), from the session's current refresh-token row; null: no such live session.
   */
  async sessionProvedAt(em: EntityManager, userId: string, sessionId: string): Promise<Date | null> {
    const found = await rows<{ proved_at: Date | null }>(
      em,
      `SELECT max(session_proved_at) AS proved_at FROM refresh_tokens
        WHERE user_id = $1 AND session_id = $2 AND consumed_at IS NULL AND expires_at > now()`,
      [userId, sessionId],
    );
    return found[0]?.proved_at ?? null;
  }

  /** Raises the step counter alone (ending all sessions): paused logins and emailed links die. */
  async voidSteps(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE users SET step_ver = step_ver + 1 WHERE id = $1`, [id]);
    await em.query(`DELETE FROM pending_logins WHERE user_id = $1`, [id]);
  }

  /**
   * Reserves one second-factor attempt of the account in one statement (the row lock orders
   * parallel attempts): counted in the current window (it starts with its first attempt and lasts
   * `windowMinutes`), unless codes are locked or `max` attempts of the window are counted or in
   * flight already; then null and when the refusal ends.
   */
  async reserveSecondFactorAttempt(
    em: EntityManager,
    id: string,
    p: { max: number; windowMinutes: number },
  ): Promise<{ count: number } | { refusedUntil: Date }> {
    const open = `(mfa_failures_since IS NOT NULL AND mfa_failures_since > now() - make_interval(mins => $3))`;
    const found = await rows<{ count: number }>(
      em,
      `UPDATE users SET
         mfa_failures = CASE WHEN ${open} THEN mfa_failures + 1 ELSE 1 END,
         mfa_failures_since = CASE WHEN ${open} THEN mfa_failures_since ELSE now() END
       WHERE id = $1 AND (mfa_locked_until IS NULL OR mfa_locked_until <= now())
         AND NOT (${open} AND mfa_failures >= $2)
       RETURNING mfa_failures AS count`,
      [id, p.max, p.windowMinutes],
    );
    if (found[0]) {
      return { count: found[0].count };
    }
    const refused = await rows<{ until: Date | null }>(
      em,
      `SELECT CASE WHEN mfa_locked_until > now() THEN mfa_locked_until
                   ELSE mfa_failures_since + make_interval(mins => $2) END AS until
         FROM users WHERE id = $1`,
      [id, p.windowMinutes],
    );
    return { refusedUntil: refused[0]?.until ?? new Date() };
  }

  /** Locks the account's codes until `lockMinutes` from now; true for the statement that locked them. */
  async lockSecondFactor(em: EntityManager, id: string, lockMinutes: number): Promise<boolean> {
    const locked = await rows(
      em,
      `UPDATE users SET mfa_locked_until = now() + make_interval(mins => $2)
        WHERE id = $1 AND (mfa_locked_until IS NULL OR mfa_locked_until <= now()) RETURNING id`,
      [id, lockMinutes],
    );
    return locked.length > 0;
  }

  /** A right code: the window's count starts over (as a right password resets its counter). */
  async resetSecondFactorAttempts(em: EntityManager, id: string): Promise<void> {
    await em.query(
      `UPDATE users SET mfa_failures = 0, mfa_failures_since = NULL
        WHERE id = $1 AND (mfa_locked_until IS NULL OR mfa_locked_until <= now())`,
      [id],
    );
  }

  /** One statement: the page, its count, and the page's roles in one join (not a subquery per row). */
  async list(
    em: EntityManager,
    q: ListQuery<UserSortField>,
  ): Promise<{ items: ListedAccountRow[]; total: number }> {
    const direction = q.sort.direction === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
    const page = await pagedRows<ListedAccountRow>(em, {
      from: 'users u',
      alias: 'u',
      columns: LIST_COLUMNS,
      join: PAGE_ROLES,
      where: q.search ? `u.email ILIKE $1 ESCAPE '\\' OR u.name ILIKE $1 ESCAPE '\\'` : '',
      params: q.search ? [containsPattern(q.search)] : [],
      orderBy: `${SORT_COLUMNS[q.sort.field]} ${direction}, u.id`,
      limit: q.limit,
      offset: q.offset,
    });
    return { items: page.rows, total: page.total };
  }

  /** Administrator edits; absent keys are untouched. */
  async update(
    em: EntityManager,
    id: string,
    p: {
      email?: string;
      name?: string;
      image?: string | null;
      emailVerified?: boolean;
      custom?: Record<string, unknown>;
    },
  ): Promise<void> {
    await em.query(
      `UPDATE users SET
         email = COALESCE($2, email),
         name = COALESCE($3, name),
         image = CASE WHEN $4::boolean THEN $5 ELSE image END,
         email_verified_at = CASE WHEN $6::boolean IS NULL THEN email_verified_at
                                  WHEN $6::boolean THEN COALESCE(email_verified_at, now()) ELSE NULL END,
         custom = custom || COALESCE($7::jsonb, '{}'::jsonb),
         updated_at = now()
       WHERE id = $1`,
      [
        id,
        p.email ?? null,
        p.name ?? null,
        p.image !== undefined,
        p.image ?? null,
        p.emailVerified ?? null,
        p.custom ? JSON.stringify(p.custom) : null,
      ],
    );
  }

  async setMustChangePassword(em: EntityManager, id: string, value: boolean): Promise<void> {
    await em.query(`UPDATE users SET must_change_password = $2 WHERE id = $1`, [id, value]);
  }

  // --- credential state: login counters and passwords -----------------------------------------

  /**
   * Counts a failed password attempt atomically; the fifth in a row locks the account for 15
   * minutes and starts a fresh count. Attempts on a locked account are not counted: false then,
   * so the caller records the refusal as `locked`.
   */
  async recordFailedLogin(
    em: EntityManager,
    id: string,
    maxAttempts: number,
    lockMinutes: number,
  ): Promise<boolean> {
    const counted = await rows<{ id: string }>(
      em,
      `UPDATE users SET
         failed_login_count = CASE WHEN failed_login_count + 1 >= $2 THEN 0 ELSE failed_login_count + 1 END,
         locked_until = CASE WHEN failed_login_count + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE locked_until END
       WHERE id = $1 AND (locked_until IS NULL OR locked_until <= now())
       RETURNING id`,
      [id, maxAttempts, lockMinutes],
    );
    return counted.length > 0;
  }
  /**
   * A correct password, decided in the statement that records it (SPEC 5.2.4): the counters are
   * reset only when the account is not locked and still has the hash the password was checked
   * against. The row stays locked until commit, so a failure that locks the account, or a
   * password write, is ordered strictly before or after this one. `changed`: the password (or
   * the account) changed while bcrypt ran, so the old password no longer opens it.
   */
  async claimPasswordLogin(
    em: EntityManager,
    id: string,
    checkedHash: string,
  ): Promise<'ok' | 'locked' | 'changed'> {
    const claimed = await rows<{ id: string }>(
      em,
      `UPDATE users SET failed_login_count = 0, locked_until = NULL
        WHERE id = $1 AND password_hash = $2 AND (locked_until IS NULL OR locked_until <= now())
        RETURNING id`,
      [id, checkedHash],
    );
    if (claimed.length) {
      return 'ok';
    }
    // Refused: a new statement (a fresh snapshot) tells the reason, for the log and audit row.
    const found = await rows<{ locked: boolean; same: boolean }>(
      em,
      `SELECT COALESCE(locked_until > now(), false) AS locked, password_hash IS NOT DISTINCT FROM $2 AS same
         FROM users WHERE id = $1`,
      [id, checkedHash],
    );
    return found[0]?.same && found[0].locked ? 'locked' : 'changed';
  }
  /**
   * A password write: new hash, the forced-change flag, lock counters cleared; `markVerified`
   * for flows that prove the address (an emailed reset or invite link).
   */
  async setPassword(
    em: EntityManager,
    id: string,
    p: { hash: string; mustChange: boolean; markVerified: boolean },
  ): Promise<void> {
    await em.query(
      `UPDATE users SET password_hash = $2, must_change_password = $3,
         email_verified_at = CASE WHEN $4::boolean THEN COALESCE(email_verified_at, now()) ELSE email_verified_at END,
         failed_login_count = 0, locked_until = NULL, updated_at = now()
       WHERE id = $1`,
      [id, p.hash, p.mustChange, p.markVerified],
    );
  }
  async markVerified(em: EntityManager, id: string): Promise<void> {
    await em.query(
      `UPDATE users SET email_verified_at = COALESCE(email_verified_at, now()), updated_at = now() WHERE id = $1`,
      [id],
    );
  }
  /**
   * A session opened. The failed-password count is not touched: only the claim of a right password
   * resets it (`claimPasswordLogin`, SPEC 5.2.4), in its own transaction; a reset here, a moment
   * later, erased failures counted in between, and 12 parallel attempts could end unlocked.
   */
  async recordSuccessfulLogin(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE users SET last_login_at = now() WHERE id = $1`, [id]);
  }

  async delete(em: EntityManager, id: string): Promise<boolean> {
    const found = await rows<{ id: string }>(em, `DELETE FROM users WHERE id = $1 RETURNING id`, [id]);
    return found.length > 0;
  }

  async removeRole(em: EntityManager, userId: string, roleId: string): Promise<boolean> {
    const found = await rows<{ role_id: string }>(
      em,
      `DELETE FROM user_roles WHERE user_id = $1 AND role_id = $2 RETURNING role_id`,
      [userId, roleId],
    );
    return found.length > 0;
  }

  /**
   * Serialises every write that could take away a super-admin (deactivation, deletion, removal of
   * the role): a transaction-scoped advisory lock, so two concurrent removals are decided one
   * after the other and the second sees the first.
   */
  lockSuperAdmins(em: EntityManager): Promise<void> {
    return xactLock(em, lockKey('superAdmins'));
  }

  /** Active accounts holding the role directly (SPEC 3.1: only those count). */
  async activeHoldersOf(em: EntityManager, roleId: string): Promise<string[]> {
    const found = await rows<{ id: string }>(
      em,
      `SELECT u.id FROM users u JOIN user_roles ur ON ur.user_id = u.id WHERE ur.role_id = $1 AND u.is_active`,
      [roleId],
    );
    return found.map((r) => r.id);
  }
}
