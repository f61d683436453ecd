import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { containsPattern, ListQuery } from '../../common/pagination';
import { lockKey, xactLock } from '../../database/locks';
import { pagedRows, rows } from '../../database/sql';

/** `config` as stored: everything but the password (that is `password_enc`, ciphertext). */
export interface StoredSmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
}

export interface ProviderRow {
  id: string;
  name: string;
  type: 'smtp';
  from_email: string;
  from_name: string | null;
  config: StoredSmtpConfig;
  password_enc: string | null;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ProviderValues {
  name: string;
  fromEmail: string;
  fromName: string | null;
  config: StoredSmtpConfig;
  passwordEnc: string | null;
}

export type ProviderSortField = 'name' | 'createdAt';

/** Sort fields to columns: identifiers in ORDER BY only ever come from this table. */
const SORT_COLUMNS: Record<ProviderSortField, string> = { name: 'name', createdAt: 'created_at' };

/** All SQL on email_providers. Methods take the EntityManager of the caller's transaction. */
@Injectable()
export class EmailProvidersRepository {
  async list(
    em: EntityManager,
    q: ListQuery<ProviderSortField>,
  ): Promise<{ rows: ProviderRow[]; total: number }> {
    return pagedRows<ProviderRow>(em, {
      from: 'email_providers e',
      alias: 'e',
      columns: 'e.*',
      where: q.search ? `name ILIKE $1 ESCAPE '\\'` : '',
      params: q.search ? [containsPattern(q.search)] : [],
      orderBy: `${SORT_COLUMNS[q.sort.field]} ${q.sort.direction === 'desc' ? 'DESC' : 'ASC'}, id ASC`,
      limit: q.limit,
      offset: q.offset,
    });
  }

  async findById(
    em: EntityManager,
    id: string,
    opts: { forUpdate?: boolean } = {},
  ): Promise<ProviderRow | null> {
    const found = await rows<ProviderRow>(
      em,
      `SELECT * FROM email_providers WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return found[0] ?? null;
  }

  async findDefault(em: EntityManager): Promise<ProviderRow | null> {
    const found = await rows<ProviderRow>(em, `SELECT * FROM email_providers WHERE is_default`);
    return found[0] ?? null;
  }

  async insert(em: EntityManager, v: ProviderValues & { isDefault: boolean }): Promise<ProviderRow> {
    const found = await rows<ProviderRow>(
      em,
      `INSERT INTO email_providers (name, type, from_email, from_name, config, password_enc, is_default)
       VALUES ($1, 'smtp', $2, $3, $4::jsonb, $5, $6) RETURNING *`,
      [v.name, v.fromEmail, v.fromName, JSON.stringify(v.config), v.passwordEnc, v.isDefault],
    );
    return found[0];
  }

  async update(em: EntityManager, id: string, v: ProviderValues): Promise<ProviderRow | null> {
    const found = await rows<ProviderRow>(
      em,
      `UPDATE email_providers
          SET name = $2, from_email = $3, from_name = $4, config = $5::jsonb, password_enc = $6, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [id, v.name, v.fromEmail, v.fromName, JSON.stringify(v.config), v.passwordEnc],
    );
    return found[0] ?? null;
  }

  async delete(em: EntityManager, id: string): Promise<ProviderRow | null> {
    const found = await rows<ProviderRow>(em, `DELETE FROM email_providers WHERE id = $1 RETURNING *`, [id]);
    return found[0] ?? null;
  }

  /**
   * Serialises changes of the default provider: with the partial unique index alone, two
   * concurrent "make X default" / "make Y default" would fail one of them with a unique violation
   * instead of the later one winning. Held until the transaction ends.
   */
  lockDefault(em: EntityManager): Promise<void> {
    return xactLock(em, lockKey('defaultEmailProvider'));
  }

  /** Unsets the default (except on `keepId`). Must run before another row is made default. */
  async clearDefault(em: EntityManager, keepId: string | null = null): Promise<void> {
    await em.query(
      `UPDATE email_providers SET is_default = false, updated_at = now()
        WHERE is_default AND ($1::uuid IS NULL OR id <> $1::uuid)`,
      [keepId],
    );
  }

  async markDefault(em: EntityManager, id: string): Promise<ProviderRow | null> {
    const found = await rows<ProviderRow>(
      em,
      `UPDATE email_providers
          SET is_default = true, updated_at = CASE WHEN is_default THEN updated_at ELSE now() END
        WHERE id = $1 RETURNING *`,
      [id],
    );
    return found[0] ?? null;
  }

  async hasDefault(em: EntityManager): Promise<boolean> {
    const found = await rows<{ exists: boolean }>(
      em,
      `SELECT EXISTS (SELECT 1 FROM email_providers WHERE is_default) AS exists`,
    );
    return found[0].exists;
  }
}
