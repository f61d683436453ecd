import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { containsPattern, ListQuery } from '../../common/pagination';
import { pagedRows, rows } from '../../database/sql';

export interface TemplateRow {
  id: string;
  slug: string;
  name: string;
  subject: string;
  html: string;
  text: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface TemplateValues {
  slug: string;
  name: string;
  subject: string;
  html: string;
  text: string | null;
}

export interface LayoutRow {
  header: string;
  footer: string;
  updated_at: Date;
}

export type TemplateSortField = 'name' | 'slug' | 'createdAt' | 'updatedAt';

/** Sort fields to columns: identifiers in ORDER BY only ever come from this table. */
const SORT_COLUMNS: Record<TemplateSortField, string> = {
  name: 'name',
  slug: 'slug',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/** All SQL on email_templates and email_layout. */
@Injectable()
export class EmailTemplatesRepository {
  async list(
    em: EntityManager,
    q: ListQuery<TemplateSortField>,
  ): Promise<{ rows: TemplateRow[]; total: number }> {
    return pagedRows<TemplateRow>(em, {
      from: 'email_templates t',
      alias: 't',
      columns: 't.*',
      where: q.search ? `name ILIKE $1 ESCAPE '\\' OR slug ILIKE $1 ESCAPE '\\'` : '',
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
  ): Promise<TemplateRow | null> {
    const found = await rows<TemplateRow>(
      em,
      `SELECT * FROM email_templates WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return found[0] ?? null;
  }

  async findBySlug(em: EntityManager, slug: string): Promise<TemplateRow | null> {
    const found = await rows<TemplateRow>(em, `SELECT * FROM email_templates WHERE slug = $1`, [slug]);
    return found[0] ?? null;
  }

  async insert(em: EntityManager, v: TemplateValues): Promise<TemplateRow> {
    const found = await rows<TemplateRow>(
      em,
      `INSERT INTO email_templates (slug, name, subject, html, text) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [v.slug, v.name, v.subject, v.html, v.text],
    );
    return found[0];
  }

  async update(em: EntityManager, id: string, v: TemplateValues): Promise<TemplateRow | null> {
    const found = await rows<TemplateRow>(
      em,
      `UPDATE email_templates
          SET slug = $2, name = $3, subject = $4, html = $5, text = $6, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [id, v.slug, v.name, v.subject, v.html, v.text],
    );
    return found[0] ?? null;
  }

  async delete(em: EntityManager, id: string): Promise<TemplateRow | null> {
    const found = await rows<TemplateRow>(em, `DELETE FROM email_templates WHERE id = $1 RETURNING *`, [id]);
    return found[0] ?? null;
  }

  /** The single layout row (seeded by the migration; an empty layout should it be missing). */
  async getLayout(em: EntityManager): Promise<LayoutRow> {
    const found = await rows<LayoutRow>(
      em,
      `SELECT header, footer, updated_at FROM email_layout WHERE id = 1`,
    );
    return found[0] ?? { header: '', footer: '', updated_at: new Date(0) };
  }

  async updateLayout(em: EntityManager, p: { header?: string; footer?: string }): Promise<LayoutRow> {
    const found = await rows<LayoutRow>(
      em,
      `INSERT INTO email_layout (id, header, footer) VALUES (1, COALESCE($1, ''), COALESCE($2, ''))
       ON CONFLICT (id) DO UPDATE
         SET header = COALESCE($1, email_layout.header),
             footer = COALESCE($2, email_layout.footer),
             updated_at = now()
       RETURNING header, footer, updated_at`,
      [p.header ?? null, p.footer ?? null],
    );
    return found[0];
  }
}
