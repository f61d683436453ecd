import type { LayoutRow, TemplateRow } from './email-templates.repository';

/** The template record of CONTRACTS 7. */
export interface EmailTemplateRecord {
  id: string;
  slug: string;
  name: string;
  subject: string;
  html: string;
  text: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EmailLayoutRecord {
  header: string;
  footer: string;
}

export function toEmailTemplateRecord(row: TemplateRow): EmailTemplateRecord {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    subject: row.subject,
    html: row.html,
    text: row.text,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function toEmailLayoutRecord(row: LayoutRow): EmailLayoutRecord {
  return { header: row.header, footer: row.footer };
}
