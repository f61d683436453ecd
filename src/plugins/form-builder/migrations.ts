import type { PluginMigration } from '../api';

/** The slug of the email template a submission notification is sent with (seeded below). */
export const SUBMISSION_TEMPLATE = 'form-submission';

/** The plugin's permissions (CONTRACTS 13.2.2): slug, action, resource, name. */
export const FORM_PERMISSIONS: ReadonlyArray<readonly [string, string, string, string]> = [
  ['create-forms', 'create', 'forms', 'Create forms'],
  ['read-forms', 'read', 'forms', 'Read forms'],
  ['update-forms', 'update', 'forms', 'Update forms'],
  ['delete-forms', 'delete', 'forms', 'Delete forms'],
  ['read-form-submissions', 'read', 'form-submissions', 'Read form submissions'],
];

/** A SQL string literal (standard_conforming_strings: only `'` needs doubling). */
function literal(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

const TEMPLATE = {
  name: 'Form submission',
  subject: 'New submission to {{formName}}',
  html: [
    '<p>The form <strong>{{formName}}</strong> ({{formSlug}}) received a new submission.</p>',
    '<pre style="white-space: pre-wrap; font-family: inherit">{{fields}}</pre>',
    '<p>Submission id: {{submissionId}}</p>',
  ].join('\n'),
  text: [
    'The form {{formName}} ({{formSlug}}) received a new submission.',
    '',
    '{{fields}}',
    '',
    'Submission id: {{submissionId}}',
  ].join('\n'),
};

/**
 * The plugin's own tables, its permissions and its notification template. One statement per
 * migration, applied once at boot in this order. Seeds use ON CONFLICT DO NOTHING: a permission
 * or a template of that slug made by hand (or kept from an earlier install) is left as it is.
 */
export const FORM_BUILDER_MIGRATIONS: PluginMigration[] = [
  {
    name: '001-forms',
    up: `CREATE TABLE plugin_forms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL CONSTRAINT plugin_forms_slug_key UNIQUE,
  name text NOT NULL,
  description text,
  status text NOT NULL DEFAULT 'open' CONSTRAINT plugin_forms_status_check CHECK (status IN ('open', 'closed')),
  fields jsonb NOT NULL,
  honeypot text,
  notify_email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
  },
  {
    name: '002-submissions',
    up: `CREATE TABLE plugin_form_submissions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  form_id uuid NOT NULL REFERENCES plugin_forms(id) ON DELETE CASCADE,
  data jsonb NOT NULL,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
)`,
  },
  {
    name: '003-submissions-by-form',
    up: `CREATE INDEX plugin_form_submissions_form_created_idx ON plugin_form_submissions (form_id, created_at, id)`,
  },
  {
    name: '004-permissions',
    up: `INSERT INTO permissions (slug, action, resource, name) VALUES
${FORM_PERMISSIONS.map((p) => `  (${p.map(literal).join(', ')})`).join(',\n')}
ON CONFLICT (slug) DO NOTHING`,
  },
  {
    name: '005-notification-template',
    up: `INSERT INTO email_templates (slug, name, subject, html, text) VALUES (${[
      SUBMISSION_TEMPLATE,
      TEMPLATE.name,
      TEMPLATE.subject,
      TEMPLATE.html,
      TEMPLATE.text,
    ]
      .map(literal)
      .join(', ')})
ON CONFLICT (slug) DO NOTHING`,
  },
];
