import { MigrationInterface, QueryRunner } from 'typeorm';

/** Seeded at first database setup (SPEC 2.3, CONTRACTS 12). */
const SEEDED_RESOURCES = [
  'users',
  'roles',
  'permissions',
  'settings',
  'email-providers',
  'email-templates',
  'media',
];
const CRUD = ['create', 'read', 'update', 'delete'];

export class CoreSchema1763721600000 implements MigrationInterface {
  name = 'CoreSchema1763721600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text NOT NULL DEFAULT '',
        image text,
        password_hash text,
        email_verified_at timestamptz,
        is_active boolean NOT NULL DEFAULT true,
        failed_login_count integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        ver integer NOT NULL DEFAULT 1,
        must_change_password boolean NOT NULL DEFAULT false,
        custom jsonb NOT NULL DEFAULT '{}'::jsonb,
        last_login_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`);

    await q.query(`
      CREATE TABLE roles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        slug text NOT NULL CONSTRAINT roles_slug_key UNIQUE,
        level integer NOT NULL DEFAULT 0,
        description text,
        is_system boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE permissions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        slug text NOT NULL CONSTRAINT permissions_slug_key UNIQUE,
        action text NOT NULL,
        resource text NOT NULL,
        name text NOT NULL,
        description text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE role_permissions (
        role_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        permission_id uuid NOT NULL REFERENCES permissions (id) ON DELETE CASCADE,
        PRIMARY KEY (role_id, permission_id)
      )`);
    await q.query(`CREATE INDEX role_permissions_permission_idx ON role_permissions (permission_id)`);
    await q.query(`
      CREATE TABLE role_inherits (
        parent_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        child_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        PRIMARY KEY (parent_id, child_id),
        CONSTRAINT role_inherits_no_self CHECK (parent_id <> child_id)
      )`);
    await q.query(`CREATE INDEX role_inherits_child_idx ON role_inherits (child_id)`);
    await q.query(`
      CREATE TABLE user_roles (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, role_id)
      )`);
    await q.query(`CREATE INDEX user_roles_role_idx ON user_roles (role_id)`);
    await q.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash char(64) NOT NULL CONSTRAINT refresh_tokens_hash_key UNIQUE,
        expires_at timestamptz NOT NULL,
        -- Set when rotated; the row is kept briefly so a request that raced the rotation can be
        -- told apart (REFRESH_SUPERSEDED) from a replay of an old token (REFRESH_FAILED).
        consumed_at timestamptz,
        user_agent text,
        ip text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)`);
    await q.query(`
      CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event text NOT NULL,
        actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
        target text,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        ip text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC)`);
    await q.query(`CREATE INDEX audit_log_event_idx ON audit_log (event, created_at DESC)`);

    await q.query(
      `INSERT INTO roles (name, slug, level, description, is_system)
       VALUES ('Super Admin', 'super-admin', 100, 'Bypasses every permission check', true)`,
    );
    const rows: Array<[string, string, string, string]> = [];
    for (const resource of SEEDED_RESOURCES) {
      for (const action of CRUD) {
        rows.push([`${action}-${resource}`, action, resource, `${capitalise(action)} ${resource}`]);
      }
    }
    rows.push(['manage-settings', 'manage', 'settings', 'Manage settings']);
    const values = rows
      .map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`)
      .join(', ');
    await q.query(`INSERT INTO permissions (slug, action, resource, name) VALUES ${values}`, rows.flat());
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'audit_log',
      'refresh_tokens',
      'user_roles',
      'role_inherits',
      'role_permissions',
      'permissions',
      'roles',
      'users',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
