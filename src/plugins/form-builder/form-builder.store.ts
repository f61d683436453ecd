import type { PluginDb } from '../api';
import type { FormDefinition, FormField, FormStatus } from './form-definition';

/** A stored form as the routes answer it (CONTRACTS 13.2.2). */
export interface FormRecord extends FormDefinition {
  id: string;
  createdAt: string;
  updatedAt: string;
}

export interface SubmissionRecord {
  id: string;
  data: Record<string, unknown>;
  createdAt: string;
}

/** One row of an export batch: the data and where the next batch starts. */
export interface ExportRow {
  data: Record<string, unknown>;
  cursor: { at: string; id: string };
}

export type FormSort = 'name' | 'slug' | 'createdAt' | 'updatedAt';

interface RawForm {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  status: FormStatus;
  fields: FormField[];
  honeypot: string | null;
  notify_email: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const FORM_COLUMNS = `id, slug, name, description, status, fields, honeypot, notify_email, created_at, updated_at`;
/** Sort keys to columns: an allow-list, so no client text reaches ORDER BY. */
const SORT_COLUMNS: Record<FormSort, string> = {
  name: 'name',
  slug: 'slug',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

function iso(v: Date | string): string {
  return (v instanceof Date ? v : new Date(v)).toISOString();
}

function formRecord(r: RawForm): FormRecord {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: r.description,
    status: r.status,
    fields: r.fields,
    honeypot: r.honeypot,
    notifyEmail: r.notify_email,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** `%search%` for ILIKE with `\` as escape: the caller's `%`, `_` and `\` match themselves. */
function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SQLSTATE and constraint of a failed statement (TypeORM wraps the driver's error). */
function pgError(e: unknown): { code?: string; constraint?: string } {
  const d = (e as { driverError?: unknown })?.driverError ?? e;
  return typeof d === 'object' && d !== null ? (d as { code?: string; constraint?: string }) : {};
}

export function isDuplicateSlug(e: unknown): boolean {
  const pg = pgError(e);
  return pg.code === '23505' && pg.constraint === 'plugin_forms_slug_key';
}

/** All SQL of the plugin (tables of `migrations.ts`), parameterised. */
export class FormStore {
  constructor(private readonly db: PluginDb) {}

  async list(q: {
    limit: number;
    offset: number;
    search?: string;
    sort: { field: FormSort; direction: 'asc' | 'desc' };
  }): Promise<{ items: FormRecord[]; total: number }> {
    const where = q.search ? `WHERE name ILIKE $1 ESCAPE '\\' OR slug ILIKE $1 ESCAPE '\\'` : '';
    const params: unknown[] = q.search ? [containsPattern(q.search)] : [];
    const [count] = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM plugin_forms ${where}`,
      params,
    );
    const dir = q.sort.direction === 'desc' ? 'DESC' : 'ASC';
    const rows = await this.db.query<RawForm>(
      `SELECT ${FORM_COLUMNS} FROM plugin_forms ${where}
        ORDER BY ${SORT_COLUMNS[q.sort.field]} ${dir}, id ${dir}
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit, q.offset],
    );
    return { items: rows.map(formRecord), total: count.total };
  }

  async find(slug: string, opts: { lock?: boolean } = {}): Promise<FormRecord | null> {
    const [row] = await this.db.query<RawForm>(
      `SELECT ${FORM_COLUMNS} FROM plugin_forms WHERE slug = $1${opts.lock ? ' FOR UPDATE' : ''}`,
      [slug],
    );
    return row ? formRecord(row) : null;
  }

  /** The new form; null when the slug is taken. */
  async create(d: FormDefinition): Promise<FormRecord | null> {
    const [row] = await this.db.query<RawForm>(
      `INSERT INTO plugin_forms (slug, name, description, status, fields, honeypot, notify_email)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
       ON CONFLICT (slug) DO NOTHING
       RETURNING ${FORM_COLUMNS}`,
      [d.slug, d.name, d.description, d.status, JSON.stringify(d.fields), d.honeypot, d.notifyEmail],
    );
    return row ? formRecord(row) : null;
  }

  /** Writes the whole definition of form `id` (throws a unique violation on a taken slug). */
  async update(id: string, d: FormDefinition): Promise<FormRecord | null> {
    const [row] = await this.db.query<RawForm>(
      `UPDATE plugin_forms
          SET slug = $2, name = $3, description = $4, status = $5, fields = $6::jsonb,
              honeypot = $7, notify_email = $8, updated_at = now()
        WHERE id = $1
       RETURNING ${FORM_COLUMNS}`,
      [id, d.slug, d.name, d.description, d.status, JSON.stringify(d.fields), d.honeypot, d.notifyEmail],
    );
    return row ? formRecord(row) : null;
  }

  /** Deletes the form (its submissions go with it); the deleted form, or null. */
  async delete(slug: string): Promise<FormRecord | null> {
    const [row] = await this.db.query<RawForm>(
      `DELETE FROM plugin_forms WHERE slug = $1 RETURNING ${FORM_COLUMNS}`,
      [slug],
    );
    return row ? formRecord(row) : null;
  }

  /**
   * Stores a submission when form `formId` still exists and is open, in one statement (a form
   * closed or deleted meanwhile stores nothing): the new id, or null.
   */
  async addSubmission(
    formId: string,
    data: Record<string, unknown>,
    ip: string | null,
  ): Promise<string | null> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO plugin_form_submissions (form_id, data, ip)
       SELECT id, $2::jsonb, $3 FROM plugin_forms WHERE id = $1 AND status = 'open'
       RETURNING id`,
      [formId, JSON.stringify(data), ip],
    );
    return row ? row.id : null;
  }

  async listSubmissions(
    formId: string,
    q: { limit: number; offset: number; direction: 'asc' | 'desc' },
  ): Promise<{ items: SubmissionRecord[]; total: number }> {
    const [count] = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM plugin_form_submissions WHERE form_id = $1`,
      [formId],
    );
    const dir = q.direction === 'asc' ? 'ASC' : 'DESC';
    const rows = await this.db.query<{
      id: string;
      data: Record<string, unknown>;
      created_at: Date | string;
    }>(
      `SELECT id, data, created_at FROM plugin_form_submissions WHERE form_id = $1
        ORDER BY created_at ${dir}, id ${dir} LIMIT $2 OFFSET $3`,
      [formId, q.limit, q.offset],
    );
    return {
      items: rows.map((r) => ({ id: r.id, data: r.data, createdAt: iso(r.created_at) })),
      total: count.total,
    };
  }

  /** Up to `size` submissions of the form after `after`, oldest first (keyset: no OFFSET to skip over). */
  async exportBatch(formId: string, after: ExportRow['cursor'] | null, size: number): Promise<ExportRow[]> {
    const rows = await this.db.query<{ id: string; data: Record<string, unknown>; at: string }>(
      after
        ? `SELECT id, data, created_at::text AS at FROM plugin_form_submissions
            WHERE form_id = $1 AND (created_at, id) > ($3::timestamptz, $4::uuid)
            ORDER BY created_at, id LIMIT $2`
        : `SELECT id, data, created_at::text AS at FROM plugin_form_submissions
            WHERE form_id = $1 ORDER BY created_at, id LIMIT $2`,
      after ? [formId, size, after.at, after.id] : [formId, size],
    );
    return rows.map((r) => ({ data: r.data, cursor: { at: r.at, id: r.id } }));
  }
}
