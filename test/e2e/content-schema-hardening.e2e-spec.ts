import { SchemaService } from '../../src/modules/content/schema.service';
import { collectionTable, fieldIndexName, joinTable } from '../../src/modules/content/schema';
import { createTestApp, TestApp } from '../utils/test-app';
import { bearerFor, createUser, roleWithPermissions } from '../utils/auth';

const api = (path: string) => `/admin/api${path}`;

/** `n` component fields named `<prefix>0..` embedding `group`. */
const components = (group: string, n: number, prefix = 'c') =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, type: 'component', fieldGroup: group }));
const texts = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, type: 'text' }));
const X = { name: 'x', type: 'text' };

describe('content schema hardening', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
  });
  afterAll(() => t.close());

  const post = (path: string, body: object) => t.http.post(api(path)).set(admin).send(body);
  const patch = (path: string, body: object) => t.http.patch(api(path)).set(admin).send(body);
  const permissionSlugs = async (resource: string): Promise<string[]> =>
    (
      (await t.db.query(`SELECT slug FROM permissions WHERE resource = $1 ORDER BY slug`, [
        resource,
      ])) as Array<{
        slug: string;
      }>
    ).map((r) => r.slug);

  describe('field groups', () => {
    it('refuses a cycle between groups over PATCH and apply, naming it, and changes nothing', async () => {
      await post('/field-groups', { slug: 'cy-a', fields: [{ name: 'x', type: 'text' }] }).expect(201);
      await post('/field-groups', { slug: 'cy-b', fields: components('cy-a', 1) }).expect(201);
      await post('/field-groups', { slug: 'cy-c', fields: components('cy-b', 1) }).expect(201);

      const viaPatch = await patch('/field-groups/cy-a', { fields: [X, ...components('cy-c', 1)] }).expect(
        409,
      );
      expect(viaPatch.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(viaPatch.body.error.code).toBe('CONFLICT');
      expect(viaPatch.body.error.message).toContain('cy-a -> cy-c -> cy-b -> cy-a');

      const viaApply = await post('/field-groups/schema/cy-a/apply', {
        fields: [X, ...components('cy-b', 1, 'back')],
      }).expect(409);
      expect(viaApply.body.error.message).toContain('cy-a -> cy-b -> cy-a');
      const preview = await post('/field-groups/schema/cy-a/preview', {
        fields: [X, ...components('cy-b', 1)],
      }).expect(409);
      expect(preview.body.error.data.cycle).toEqual(['cy-a', 'cy-b', 'cy-a']);

      const got = await t.http.get(api('/field-groups/cy-a')).set(admin).expect(200);
      expect(got.body.fields.map((f: { name: string }) => f.name)).toEqual(['x']);
    });

    it('lets only one of two concurrent changes close a cycle', async () => {
      for (let round = 0; round < 4; round++) {
        const [a, b] = [`ra-${round}`, `rb-${round}`];
        await post('/field-groups', { slug: a, fields: [X] }).expect(201);
        await post('/field-groups', { slug: b, fields: [X] }).expect(201);
        const answers = await Promise.all([
          patch(`/field-groups/${a}`, { fields: [X, ...components(b, 1)] }),
          patch(`/field-groups/${b}`, { fields: [X, ...components(a, 1)] }),
        ]);
        expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      }
    });

    it('bounds the expansion when a definition is written: fields, depth, and users of a changed group', async () => {
      await post('/field-groups', { slug: 'sz-leaf', fields: texts(14) }).expect(201);
      await post('/field-groups', { slug: 'sz-mid', fields: components('sz-leaf', 14) }).expect(201); // 210 fields
      // 14 + 14 * 210 = 2,954 fields.
      const wide = await post('/field-groups', { slug: 'sz-top', fields: components('sz-mid', 14) }).expect(
        409,
      );
      expect(wide.body.error.code).toBe('CONFLICT');
      expect(wide.body.error.message).toMatch(/field group "sz-top" would expand to more than 1000 fields/);
      expect(wide.body.error.data).toMatchObject({ limit: 'fields', limits: { fields: 1000, depth: 5 } });
      await post('/collections', { slug: 'sz-wide', fields: components('sz-mid', 5) }).expect(409); // 1,055
      await post('/collections', { slug: 'sz-ok', fields: components('sz-mid', 4) }).expect(201); // 844

      // Five levels of fields at most: the collection, then four groups deep.
      await post('/field-groups', { slug: 'dp-1', fields: texts(1) }).expect(201);
      for (let i = 2; i <= 5; i++) {
        await post('/field-groups', { slug: `dp-${i}`, fields: components(`dp-${i - 1}`, 1) }).expect(201);
      }
      await post('/collections', { slug: 'dp-ok', fields: components('dp-4', 1) }).expect(201);
      const deep = await post('/singles', { slug: 'dp-deep', fields: components('dp-5', 1) }).expect(409);
      expect(deep.body.error.message).toMatch(/single "dp-deep" would expand to more than 5 levels/);

      // A group change that would push a definition embedding it over is refused, naming it.
      await post('/field-groups', { slug: 'sz-small', fields: texts(1) }).expect(201);
      await post('/collections', { slug: 'sz-user', fields: components('sz-small', 4) }).expect(201);
      const grown = await patch('/field-groups/sz-small', {
        fields: [...texts(1), ...components('sz-mid', 2)],
      }).expect(409);
      expect(grown.body.error.message).toMatch(
        /collection "sz-user" would expand to more than 1000 fields .*embeds the field group "sz-small"/,
      );
      const schema = await t.http.get(api('/collections/schema/sz-user')).set(admin).expect(200);
      expect(schema.body.fields[0].fields).toEqual([expect.objectContaining({ name: 't0' })]);
    });

    it('serves a bounded enriched schema even over groups stored in a cycle before these rules', async () => {
      await post('/field-groups', { slug: 'old-a', fields: texts(1) }).expect(201);
      await post('/field-groups', { slug: 'old-b', fields: components('old-a', 14) }).expect(201);
      await post('/collections', { slug: 'old-user', fields: components('old-a', 1) }).expect(201);
      await post('/singles', { slug: 'old-single', fields: components('old-b', 1) }).expect(201);
      // What the old rules let through: 14 components each way (62 MB of enriched schema).
      await t.db.query(
        `UPDATE content_definitions SET definition = jsonb_set(definition, '{fields}', $1::jsonb)
          WHERE kind = 'field-group' AND slug = 'old-a'`,
        [JSON.stringify(components('old-b', 14).map((f, i) => ({ ...f, id: `old-${i}` })))],
      );
      t.app.get(SchemaService).invalidate();

      for (const path of ['/collections/schema/old-user', '/singles/old-single/schema']) {
        const res = await t.http.get(api(path)).set(admin).expect(200);
        expect(res.text.length).toBeLessThan(300_000);
        let count = 0;
        const walk = (fields: Array<{ fields?: unknown[] }>): void => {
          for (const f of fields) {
            count++;
            walk((f.fields ?? []) as Array<{ fields?: unknown[] }>);
          }
        };
        walk(res.body.fields);
        expect(count).toBeGreaterThan(100);
        expect(count).toBeLessThanOrEqual(1000);
      }
      // Changing a group of that cycle is refused until the change breaks it.
      await patch('/field-groups/old-b', { label: 'Old B' }).expect(409);
      await patch('/field-groups/old-a', { fields: texts(1), confirmDestructive: true }).expect(200);
      await patch('/field-groups/old-b', { label: 'Old B' }).expect(200);
    });
  });

  describe('permissions of collections and singles', () => {
    it('refuses a collection whose permissions exist, naming them, and creates nothing', async () => {
      const custom = await post('/permissions', { action: 'read', resource: 'reports' }).expect(201);
      const res = await post('/collections', {
        slug: 'reports',
        fields: [{ name: 'title', type: 'text' }],
      }).expect(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(res.body.error.message).toContain('read-reports');
      expect(res.body.error.data).toEqual({ permissions: ['read-reports'] });
      expect(await permissionSlugs('reports')).toEqual(['read-reports']);
      const tables = await t.db.query(`SELECT to_regclass('c_reports') AS t`);
      expect(tables[0].t).toBeNull();
      await t.http.get(api('/collections/reports')).set(admin).expect(404);
      await post('/singles', { slug: 'reports', fields: [] }).expect(409);

      // Once the custom permission is gone, the slug is free.
      await t.http
        .delete(api(`/permissions/${custom.body.item.id}`))
        .set(admin)
        .expect(200);
      await post('/collections', { slug: 'reports', fields: [{ name: 'title', type: 'text' }] }).expect(201);
      expect(await permissionSlugs('reports')).toEqual([
        'create-reports',
        'delete-reports',
        'read-reports',
        'update-reports',
      ]);
    });

    it('deletes only the permissions the collection created, keeping a custom one and its grants', async () => {
      await post('/collections', { slug: 'memos', fields: [{ name: 'text', type: 'text' }] }).expect(201);
      // The collection's own permissions are not deleted alone (409); a custom one of its resource is.
      const [own] = await t.db.query(`SELECT id FROM permissions WHERE slug = 'read-memos'`);
      await t.http
        .delete(api(`/permissions/${own.id}`))
        .set(admin)
        .expect(409);
      await post('/permissions', { action: 'publish', resource: 'memos' }).expect(201);
      const roleId = await roleWithPermissions(t, ['read-memos', 'publish-memos']);

      await t.http.delete(api('/collections/memos')).set(admin).expect(200);
      expect(await permissionSlugs('memos')).toEqual(['publish-memos']);
      const grants = await t.db.query(
        `SELECT p.slug FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
          WHERE rp.role_id = $1 ORDER BY p.slug`,
        [roleId],
      );
      expect(grants.map((g: { slug: string }) => g.slug)).toEqual(['publish-memos']);
    });

    it('decides between a collection and a permission created at once: never both', async () => {
      for (let round = 0; round < 6; round++) {
        const slug = `race-${round}`;
        const [collection, permission] = await Promise.all([
          post('/collections', { slug, fields: [] }),
          post('/permissions', { action: 'update', resource: slug }),
        ]);
        expect([collection.status, permission.status].sort()).toEqual([201, 409]);
        const owners = await t.db.query(
          `SELECT count(*)::int AS n FROM permissions WHERE resource = $1 AND content_definition_id IS NULL`,
          [slug],
        );
        expect(owners[0].n).toBe(collection.status === 201 ? 0 : 1);
      }
    });

    it('reserves the slugs of core and shipped-plugin resources', async () => {
      for (const slug of [
        'audit',
        'forms',
        'form-submissions',
        'sessions',
        'totp',
        'oidc',
        'passkeys',
        'magic-link',
      ]) {
        const res = await post('/collections', { slug, fields: [] }).expect(400);
        expect(res.body.error.data.errors).toEqual([
          expect.objectContaining({ path: 'slug', code: 'reserved' }),
        ]);
      }
    });
  });

  describe('shortened names', () => {
    /** The slug whose plain table name is `name`, a shortened `c_<52 characters>_<8 hex digits>`. */
    const twinOf = (name: string): string => name.slice(2).replace(/_/g, '-');

    it('refuses a slug whose table name another collection holds, naming it (both orders)', async () => {
      const long = 'l'.repeat(63);
      const twin = twinOf(collectionTable(long));
      expect(collectionTable(twin)).toBe(collectionTable(long));
      await post('/collections', { slug: long, fields: [] }).expect(201);
      const res = await post('/collections', { slug: twin, fields: [] }).expect(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(res.body.error.message).toContain(`collection "${long}"`);
      expect(res.body.error.data).toEqual({
        name: collectionTable(long),
        usedBy: { kind: 'collection', slug: long },
      });

      const long2 = 'm'.repeat(63);
      const twin2 = twinOf(collectionTable(long2));
      await post('/collections', { slug: twin2, fields: [] }).expect(201);
      const res2 = await post('/collections', { slug: long2, fields: [] }).expect(409);
      expect(res2.body.error.message).toContain(`collection "${twin2}"`);
    });

    it('refuses a join table or index that meets another collection table, on create and on apply', async () => {
      const long = 'j'.repeat(60);
      const join = joinTable(collectionTable(long), 'tags');
      const twin = twinOf(join);
      expect(collectionTable(twin)).toBe(join);
      const hasMany = { name: 'tags', type: 'relationship', relationTo: 'media', hasMany: true };

      await post('/collections', { slug: twin, fields: [] }).expect(201);
      const created = await post('/collections', { slug: long, fields: [hasMany] }).expect(409);
      expect(created.body.error.message).toContain(`collection "${twin}"`);

      await post('/collections', { slug: long, fields: [] }).expect(201);
      const applied = await post(`/collections/schema/${long}/apply`, { fields: [hasMany] }).expect(409);
      expect(applied.body.error.data.usedBy).toEqual({ kind: 'collection', slug: twin });

      // An index of a long table is cut to the same head as the table, so it can meet one too.
      const index = fieldIndexName(collectionTable(long), 'code', 'idx');
      const indexTwin = twinOf(index);
      await post('/collections', { slug: indexTwin, fields: [] }).expect(201);
      const indexed = await patch(`/collections/${long}`, {
        fields: [{ name: 'code', type: 'text', index: true }],
      });
      expect(indexed.status).toBe(409);
      expect(indexed.body.error.data).toEqual({
        name: index,
        usedBy: { kind: 'collection', slug: indexTwin },
      });
      // The name stays the other collection's table; no index took it.
      expect(await t.db.query(`SELECT relkind FROM pg_class WHERE relname = $1`, [index])).toEqual([
        { relkind: 'r' },
      ]);
    });
  });

  it('answers 409, not 500, when a table of that name exists outside the content engine', async () => {
    await t.db.query(`CREATE TABLE c_stray (id uuid PRIMARY KEY)`);
    const res = await post('/collections', { slug: 'stray', fields: [] }).expect(409);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(res.body.error.message).toContain('relation "c_stray" already exists');
    await t.http.get(api('/collections/stray')).set(admin).expect(404);
    expect(await permissionSlugs('stray')).toEqual([]);
  });

  describe('singles', () => {
    it('get their row with the single, a draft with column defaults', async () => {
      const res = await post('/singles', {
        slug: 'banner',
        drafts: true,
        fields: [
          { name: 'title', type: 'text', defaultValue: 'Hello' },
          { name: 'visits', type: 'number' },
        ],
      }).expect(201);
      const rows = await t.db.query(`SELECT id, status, title, visits FROM s_banner`);
      expect(rows).toEqual([{ id: res.body.item.id, status: 'draft', title: 'Hello', visits: null }]);

      await post('/singles', { slug: 'plain', fields: [{ name: 'note', type: 'text' }] }).expect(201);
      const plain = await t.db.query(`SELECT note FROM s_plain`);
      expect(plain).toEqual([{ note: null }]);
    });
  });
});

describe('content schema hardening: boot sync', () => {
  it('stops the boot when a code collection would take over existing permissions, naming them', async () => {
    const first = await createTestApp();
    const database = first.database;
    const admin = await bearerFor(first, (await createUser(first, { roles: ['super-admin'] })).id);
    await first.http
      .post(api('/permissions'))
      .set(admin)
      .send({ action: 'delete', resource: 'ledger' })
      .expect(201);
    await first.app.close();

    const config = {
      collections: [{ slug: 'ledger', fields: [{ name: 'amount', type: 'number' as const }] }],
    };
    await expect(createTestApp({ config, database })).rejects.toThrow(
      /collections\[ledger\].*delete-ledger/s,
    );

    // Without the foreign permission it boots, and boots again over the permissions it created.
    const probe = await createTestApp({ database });
    await probe.db.query(`DELETE FROM permissions WHERE slug = 'delete-ledger'`);
    await probe.app.close();
    const second = await createTestApp({ config, database });
    await second.app.close();
    const third = await createTestApp({ config, database });
    const owned = await third.db.query(
      `SELECT p.slug FROM permissions p JOIN content_definitions d ON d.id = p.content_definition_id
        WHERE d.slug IN ('ledger', 'media') ORDER BY p.slug`,
    );
    expect(owned.map((r: { slug: string }) => r.slug)).toEqual([
      'create-ledger',
      'create-media',
      'delete-ledger',
      'delete-media',
      'read-ledger',
      'read-media',
      'update-ledger',
      'update-media',
    ]);
    await third.app.close();
    await database.drop();
  });

  it('creates the row of a code single, and adds a missing one to any single', async () => {
    const config = {
      singles: [
        { slug: 'site', drafts: true, fields: [{ name: 'name', type: 'text' as const, defaultValue: 'S' }] },
      ],
    };
    const first = await createTestApp({ config });
    const database = first.database;
    const [site] = await first.db.query(`SELECT id FROM content_definitions WHERE slug = 'site'`);
    expect(await first.db.query(`SELECT id, status, name FROM s_site`)).toEqual([
      { id: site.id, status: 'draft', name: 'S' },
    ]);
    const admin = await bearerFor(first, (await createUser(first, { roles: ['super-admin'] })).id);
    await first.http
      .post(api('/singles'))
      .set(admin)
      .send({ slug: 'notice', fields: [{ name: 'text', type: 'text' }] })
      .expect(201);
    // Singles made before they got their row at creation: no row.
    await first.db.query(`DELETE FROM s_site`);
    await first.db.query(`DELETE FROM s_notice`);
    await first.app.close();

    const second = await createTestApp({ config, database });
    expect(await second.db.query(`SELECT id, status, name FROM s_site`)).toEqual([
      { id: site.id, status: 'draft', name: 'S' },
    ]);
    expect(await second.db.query(`SELECT count(*)::int AS n FROM s_notice`)).toEqual([{ n: 1 }]);
    await second.app.close();
    await database.drop();
  });
});
