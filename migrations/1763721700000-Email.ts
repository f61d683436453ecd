import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The built-in templates of CONTRACTS 7, seeded once and editable afterwards. Kept here (not
 * imported from src/) so this migration stays what it was when it first ran.
 */
const BUILT_IN_TEMPLATES: Array<{ slug: string; name: string; subject: string; html: string; text: string }> =
  [
    {
      slug: 'verify-email',
      name: 'Verify email address',
      subject: 'Confirm your email address',
      html: [
        '<p>Hello {{name}},</p>',
        '<p>Please confirm that {{email}} is your email address by following this link:</p>',
        '<p><a href="{{link}}">Confirm my email address</a></p>',
        '<p>The link is valid for 48 hours. If you did not create an account at {{appUrl}}, ignore this email.</p>',
      ].join('\n'),
      text: [
        'Hello {{name}},',
        '',
        'Please confirm that {{email}} is your email address by opening this link:',
        '{{link}}',
        '',
        'The link is valid for 48 hours. If you did not create an account at {{appUrl}}, ignore this email.',
      ].join('\n'),
    },
    {
      slug: 'reset-password',
      name: 'Reset password',
      subject: 'Reset your password',
      html: [
        '<p>Hello {{name}},</p>',
        '<p>Someone asked to reset the password of the account {{email}}. To choose a new password, follow this link:</p>',
        '<p><a href="{{link}}">Reset my password</a></p>',
        '<p>The link is valid for 24 hours and works once. If you did not ask for it, ignore this email: your password stays as it is.</p>',
      ].join('\n'),
      text: [
        'Hello {{name}},',
        '',
        'Someone asked to reset the password of the account {{email}}. To choose a new password, open this link:',
        '{{link}}',
        '',
        'The link is valid for 24 hours and works once. If you did not ask for it, ignore this email: your password stays as it is.',
      ].join('\n'),
    },
    {
      slug: 'invite',
      name: 'Invitation',
      subject: 'You have been invited',
      html: [
        '<p>Hello {{name}},</p>',
        '<p>You have been invited to create an account ({{email}}) at {{appUrl}}. To accept, follow this link and choose a password:</p>',
        '<p><a href="{{link}}">Accept the invitation</a></p>',
        '<p>The link is valid for 7 days.</p>',
      ].join('\n'),
      text: [
        'Hello {{name}},',
        '',
        'You have been invited to create an account ({{email}}) at {{appUrl}}. To accept, open this link and choose a password:',
        '{{link}}',
        '',
        'The link is valid for 7 days.',
      ].join('\n'),
    },
    {
      slug: 'password-changed',
      name: 'Password changed',
      subject: 'Your password was changed',
      html: [
        '<p>Hello {{name}},</p>',
        '<p>The password of the account {{email}} at {{appUrl}} was just changed, and every session of the account was signed out.</p>',
        '<p>If you did not do this, reset your password at once and tell your administrator.</p>',
      ].join('\n'),
      text: [
        'Hello {{name}},',
        '',
        'The password of the account {{email}} at {{appUrl}} was just changed, and every session of the account was signed out.',
        '',
        'If you did not do this, reset your password at once and tell your administrator.',
      ].join('\n'),
    },
  ];

export class Email1763721700000 implements MigrationInterface {
  name = 'Email1763721700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE email_providers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        type text NOT NULL CONSTRAINT email_providers_type_check CHECK (type = 'smtp'),
        from_email text NOT NULL,
        from_name text,
        -- host, port, secure, user: never the password (that is password_enc).
        config jsonb NOT NULL,
        -- AES-256-GCM ciphertext under a key derived from SVC_SECRET: v1:<iv>:<tag>:<ciphertext>.
        password_enc text,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // At most one default provider.
    await q.query(
      `CREATE UNIQUE INDEX email_providers_one_default ON email_providers (is_default) WHERE is_default`,
    );

    await q.query(`
      CREATE TABLE email_templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        slug text NOT NULL CONSTRAINT email_templates_slug_key UNIQUE,
        name text NOT NULL,
        subject text NOT NULL,
        html text NOT NULL,
        text text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE email_layout (
        id smallint PRIMARY KEY CONSTRAINT email_layout_single_row CHECK (id = 1),
        header text NOT NULL DEFAULT '',
        footer text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO email_layout (id) VALUES (1)`);

    for (const t of BUILT_IN_TEMPLATES) {
      await q.query(
        `INSERT INTO email_templates (slug, name, subject, html, text) VALUES ($1, $2, $3, $4, $5)`,
        [t.slug, t.name, t.subject, t.html, t.text],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['email_layout', 'email_templates', 'email_providers']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
