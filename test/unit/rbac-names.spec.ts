import {
  defaultPermissionName,
  deriveRoleSlug,
  emptyToNull,
  permissionSlug,
} from '../../src/modules/rbac/rbac-names';
import { CORE_PERMISSION_SLUGS, ROLE_SLUG_PATTERN } from '../../src/modules/rbac/rbac.constants';

describe('role slug derivation', () => {
  it.each([
    ['Editor', 'editor'],
    ['Content Editors', 'content-editors'],
    ['  Senior   Editor!! ', 'senior-editor'],
    ['Team_Lead / EMEA', 'team-lead-emea'],
    ['Éditeur en chef', 'editeur-en-chef'],
    ['Crème brûlée', 'creme-brulee'],
    ['--Admin--', 'admin'],
    ['Level 2 support', 'level-2-support'],
    ['a', 'a'],
  ])('%j -> %j', (name, slug) => {
    expect(deriveRoleSlug(name)).toBe(slug);
  });

  it('cuts long names to 63 characters without a trailing dash', () => {
    const slug = deriveRoleSlug(`${'a'.repeat(62)} bcd`)!;
    expect(slug).toBe('a'.repeat(62));
    expect(deriveRoleSlug('x'.repeat(100))).toBe('x'.repeat(63));
    expect(deriveRoleSlug(`${'ab '.repeat(40)}`)!.length).toBeLessThanOrEqual(63);
  });

  it('gives null when no valid slug comes out (caller must send one)', () => {
    expect(deriveRoleSlug('')).toBeNull();
    expect(deriveRoleSlug('   ')).toBeNull();
    expect(deriveRoleSlug('!!!')).toBeNull();
    expect(deriveRoleSlug('2FA admins')).toBeNull();
    expect(deriveRoleSlug('管理者')).toBeNull();
  });

  it('always answers a slug that matches the pattern', () => {
    const samples = ['A b C', 'x'.repeat(200), 'Ωmega role', 'ok-1', 'Ünïcödé Rôle 9', 'z--z'];
    for (const name of samples) {
      const slug = deriveRoleSlug(name);
      expect(slug === null || ROLE_SLUG_PATTERN.test(slug)).toBe(true);
    }
  });
});

describe('permission names', () => {
  it('builds the slug <action>-<resource> and a default name like the seeded ones', () => {
    expect(permissionSlug('read', 'email-templates')).toBe('read-email-templates');
    expect(defaultPermissionName('publish', 'articles')).toBe('Publish articles');
  });

  it('knows the core permissions of CONTRACTS 12', () => {
    expect(CORE_PERMISSION_SLUGS.size).toBe(34);
    expect(CORE_PERMISSION_SLUGS.has('read-audit')).toBe(true);
    expect(CORE_PERMISSION_SLUGS.has('update-webhooks')).toBe(true);
    expect(CORE_PERMISSION_SLUGS.has('manage-settings')).toBe(true);
    expect(CORE_PERMISSION_SLUGS.has('delete-email-providers')).toBe(true);
    expect(CORE_PERMISSION_SLUGS.has('read-articles')).toBe(false);
  });

  it('treats a blank description as none', () => {
    expect(emptyToNull('  ')).toBeNull();
    expect(emptyToNull(null)).toBeNull();
    expect(emptyToNull(undefined)).toBeNull();
    expect(emptyToNull('x')).toBe('x');
  });
});
