import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The built-in `magic-link` template (CONTRACTS 14.5): the email of the shipped magicLinkPlugin,
 * seeded once and editable afterwards like the templates of the Email migration. Variables:
 * `name`, `email`, `link`, `minutes` (how long the link is valid) and `appUrl`. A site that
 * already made its own `magic-link` template keeps it. Kept here (not imported from src/) so this
 * migration stays what it was when it first ran.
 */
const TEMPLATE = {
  slug: 'magic-link',
  name: 'Sign-in link',
  subject: 'Your sign-in link',
  html: [
    '<p>Hello {{name}},</p>',
    '<p>To sign in to {{appUrl}} as {{email}}, follow this link:</p>',
    '<p><a href="{{link}}">Sign me in</a></p>',
    '<p>The link is valid for {{minutes}} minutes and works once. If you did not ask for it, ignore this email: nobody can sign in without it.</p>',
  ].join('\n'),
  text: [
    'Hello {{name}},',
    '',
    'To sign in to {{appUrl}} as {{email}}, open this link:',
    '{{link}}',
    '',
    'The link is valid for {{minutes}} minutes and works once. If you did not ask for it, ignore this email: nobody can sign in without it.',
  ].join('\n'),
};

export class MagicLinkTemplate1763722950000 implements MigrationInterface {
  name = 'MagicLinkTemplate1763722950000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO email_templates (slug, name, subject, html, text) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (slug) DO NOTHING`,
      [TEMPLATE.slug, TEMPLATE.name, TEMPLATE.subject, TEMPLATE.html, TEMPLATE.text],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM email_templates WHERE slug = $1`, [TEMPLATE.slug]);
  }
}
