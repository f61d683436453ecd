import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ConfigError } from '../../src/config/env';
import { ServiceError } from '../../src/common/errors';
import type { FieldConfig } from '../../src/config/config.types';
import { UserFieldsRepository } from '../../src/modules/user-fields/user-fields.repository';
import { ChangeBus } from '../../src/modules/cluster/change-bus.service';
import { UserFieldsService } from '../../src/modules/user-fields/user-fields.service';
import { normaliseOptions, SVC_CONNECTION } from '../../src/config/svc-options';
import { createUser, signIn } from '../utils/auth';
import { createTestApp, TestApp, TEST_SECRET } from '../utils/test-app';

type Method = 'get' | 'post' | 'patch' | 'delete';

const CODE_FIELDS: FieldConfig[] = [
  { name: 'department', type: 'text', required: true },
  { name: 'plan', type: 'select', label: 'Plan', options: ['free', { label: 'Pro plan', value: 'pro' }] },
];

const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

interface Definition {
  id: string;
  name: string;
  type: string;
  label: string;
  required: boolean;
  options?: unknown[];
  order: number;
  source: 'code' | 'ui';
}

describe('user fields: definitions over REST and from the config', () => {
  let t: TestApp;
  let token: string;

  function api(method: Method, path: string, body?: object, bearer: string | null = token) {
    let req = t.http[method](`/admin/api${path}`);
    if (bearer) {
      req = req.set('Authorization', `Bearer ${bearer}`);
    }
    return body === undefined ? req : req.send(body);
  }

  async function list(query = ''): Promise<Definition[]> {
    const res = await api('get', `/user-fields?limit=500${query}`);
    expect(res.status).toBe(200);
    return res.body.items as Definition[];
  }

  async function createField(body: object): Promise<Definition> {
    const res = await api('post', '/user-fields', body);
    expect([res.status, res.body.error]).toEqual([201, undefined]);
    return res.body.item as Definition;
  }

  /** A user holding exactly these permissions through a role of its own. */
  async function tokenWith(...permissions: string[]): Promise<string> {
    const slug = `role-${permissions.join('-') || 'none'}-${Math.random().toString(36).slice(2, 8)}`;
    const [role] = await t.db.query(`INSERT INTO roles (name, slug) VALUES ($1, $1) RETURNING id`, [slug]);
    await t.db.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT $1, id FROM permissions WHERE slug = ANY($2::text[])`,
      [role.id, permissions],
    );
    const user = await createUser(t, { roles: [slug] });
    return (await signIn(t, user)).body.token;
  }

  beforeAll(async () => {
    t = await createTestApp({ config: { users: { fields: CODE_FIELDS } } });
    const admin = await createUser(t, { roles: ['super-admin'] });
    token = (await signIn(t, admin)).body.token;
  });
  afterAll(() => t.close());

  describe('code-defined fields', () => {
    it('are synchronised at boot: ids, order, source "code", the record of CONTRACTS 12', async () => {
      const res = await api('get', '/user-fields');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        items: [
          {
            id: UUID,
            name: 'department',
            type: 'text',
            label: 'Department',
            required: true,
            order: 0,
            source: 'code',
          },
          {
            id: UUID,
            name: 'plan',
            type: 'select',
            label: 'Plan',
            required: false,
            options: ['free', { label: 'Pro plan', value: 'pro' }],
            order: 1,
            source: 'code',
          },
        ],
        meta: { total: 2, page: 1, limit: 10, totalPages: 1, hasNext: false, hasPrev: false },
      });
      const [dept] = res.body.items as Definition[];
      expect((await api('get', `/user-fields/${dept.id}`)).body).toEqual(dept);
    });

    it('cannot be changed or deleted over REST: 409 CONFLICT', async () => {
      const [dept, plan] = await list();
      for (const [method, path, body] of [
        ['patch', `/user-fields/${dept.id}`, { label: 'Team' }],
        ['patch', `/user-fields/${plan.id}`, { options: ['free'] }],
        ['patch', `/user-fields/${dept.id}`, {}],
        ['delete', `/user-fields/${dept.id}`, undefined],
        ['delete', `/user-fields/${plan.id}`, undefined],
      ] as Array<[Method, string, object | undefined]>) {
        const res = await api(method, path, body);
        expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 409, 'CONFLICT']);
        expect(res.body.error.message).toMatch(/configuration/);
      }
      expect(await list()).toEqual([dept, plan]);
    });

    it('a second boot with another config updates, adds, removes, and takes over a UI field of the same name', async () => {
      const ui = await createField({ name: 'badge', type: 'text', label: 'Badge (UI)' });
      const before = await list();
      const dept = before.find((f) => f.name === 'department')!;
      const other = await createTestApp({
        database: t.database,
        config: {
          users: {
            fields: [
              { name: 'department', type: 'text', label: 'Team', required: false },
              { name: 'badge', type: 'number' },
              { name: 'floor', type: 'number' },
            ],
          },
        },
      });
      try {
        const rows: Definition[] = (
          await other.http.get('/admin/api/user-fields?limit=500').set('Authorization', `Bearer ${token}`)
        ).body.items;
        expect(rows).toEqual([
          { ...dept, label: 'Team', required: false, order: 0 },
          {
            id: ui.id,
            name: 'badge',
            type: 'number',
            label: 'Badge',
            required: false,
            order: 1,
            source: 'code',
          },
          {
            id: UUID,
            name: 'floor',
            type: 'number',
            label: 'Floor',
            required: false,
            order: 2,
            source: 'code',
          },
        ]);
      } finally {
        await other.close();
      }
      // Booting with the original config again restores the first definitions (department keeps its id; plan is new).
      const again = await createTestApp({ database: t.database, config: { users: { fields: CODE_FIELDS } } });
      try {
        const rows: Definition[] = (
          await again.http.get('/admin/api/user-fields?limit=500').set('Authorization', `Bearer ${token}`)
        ).body.items;
        expect(rows.map((r) => [r.name, r.source, r.order])).toEqual([
          ['department', 'code', 0],
          ['plan', 'code', 1],
        ]);
        expect(rows[0]).toEqual(dept);
      } finally {
        await again.close();
      }
    });

    it('a users.fields entry the service cannot honour stops the boot, naming it', () => {
      const db = t.app.get<DataSource>(getDataSourceToken(SVC_CONNECTION));
      const make = (fields: FieldConfig[]) =>
        new UserFieldsService(
          db,
          new UserFieldsRepository(),
          normaliseOptions({
            secret: TEST_SECRET,
            database: { url: t.database.url },
            config: { users: { fields } },
          }),
          null,
        );
      expect(() => make([{ name: 'email', type: 'text' }])).toThrow(ConfigError);
      expect(() => make([{ name: 'body', type: 'richText' }])).toThrow(
        /users\.fields\[0\] \("body"\): type must be one of/,
      );
      expect(() => make([{ name: 'choice', type: 'select' }])).toThrow(/needs options/);
      expect(() => make([{ name: 'code', type: 'text', unique: true }])).toThrow(/"unique" is not supported/);
    });
  });

  describe('UI-defined fields', () => {
    // The boot test above leaves department, plan; these tests add their own.
    let nickname: Definition;
    let tier: Definition;

    it('POST creates one: 201 { message, item }, placed last, label from the name', async () => {
      const res = await api('post', '/user-fields', { name: 'nickName', type: 'text' });
      expect(res.status).toBe(201);
      const fields = await list();
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          id: UUID,
          name: 'nickName',
          type: 'text',
          label: 'Nick name',
          required: false,
          order: fields.length - 1,
          source: 'ui',
        },
      });
      nickname = res.body.item;
      expect(fields.at(-1)).toEqual(nickname);

      tier = await createField({
        name: 'tier',
        type: 'select',
        label: '  Tier ',
        required: true,
        options: [' gold ', { label: 'Silver', value: 'silver' }],
      });
      expect(tier).toEqual({
        id: UUID,
        name: 'tier',
        type: 'select',
        label: 'Tier',
        required: true,
        options: ['gold', { label: 'Silver', value: 'silver' }],
        order: nickname.order + 1,
        source: 'ui',
      });
      expect((await api('get', `/user-fields/${tier.id}`)).body).toEqual(tier);
      const [row] = await t.db.query(`SELECT source, options FROM user_fields WHERE id = $1`, [tier.id]);
      expect(row).toEqual({ source: 'ui', options: ['gold', { label: 'Silver', value: 'silver' }] });
    });

    it('creates every supported type', async () => {
      for (const type of ['textarea', 'email', 'number', 'checkbox', 'date', 'json']) {
        const item = await createField({ name: `any_${type}`, type });
        expect(item).toMatchObject({ name: `any_${type}`, type, source: 'ui' });
        expect(item).not.toHaveProperty('options');
        expect((await api('delete', `/user-fields/${item.id}`)).status).toBe(200);
      }
    });

    it('refuses bad definitions: 400 VALIDATION_ERROR, one entry per problem, with paths', async () => {
      const cases: Array<[object, Array<[string, string]>]> = [
        [{ name: 'email', type: 'text' }, [['name', 'reserved']]],
        [{ name: 'RoleIds', type: 'text' }, [['name', 'reserved']]],
        [{ name: 'exp', type: 'number' }, [['name', 'reserved']]],
        [{ name: '1st', type: 'text' }, [['name', 'matches']]],
        [{ name: 'a-b', type: 'text' }, [['name', 'matches']]],
        [{ name: 'x'.repeat(64), type: 'text' }, [['name', 'matches']]],
        [{ type: 'text' }, [['name', 'required']]],
        [{ name: 'body', type: 'richText' }, [['type', 'isIn']]],
        [{ name: 'rel', type: 'relationship' }, [['type', 'isIn']]],
        [{ name: 'choice', type: 'select' }, [['options', 'required']]],
        [{ name: 'choice', type: 'select', options: [] }, [['options', 'isArray']]],
        [
          { name: 'choice', type: 'select', options: ['a', '', { label: 'B' }, 'a'] },
          [
            ['options.1', 'length'],
            ['options.2.value', 'isString'],
            ['options.3', 'duplicate'],
          ],
        ],
        [{ name: 'age', type: 'number', options: ['1'] }, [['options', 'notAllowed']]],
        [{ name: 'age', type: 'number', required: 'yes' }, [['required', 'isBoolean']]],
        [{ name: 'age', type: 'number', label: '' }, [['label', 'isNotEmpty']]],
        [{ name: 'age', type: 'number', unique: true }, [['unique', 'unknown_field']]],
        // An unknown key does not hide the other problems.
        [
          { name: 'id', type: 'number', unique: true },
          [
            ['unique', 'unknown_field'],
            ['name', 'reserved'],
          ],
        ],
        [
          { name: 'id', type: 'color', label: 3 },
          [
            ['name', 'reserved'],
            ['type', 'isIn'],
            ['label', 'isString'],
          ],
        ],
      ];
      const before = await list();
      for (const [body, expected] of cases) {
        const res = await api('post', '/user-fields', body);
        expect([JSON.stringify(body), res.status, res.body.error?.code]).toEqual([
          JSON.stringify(body),
          400,
          'VALIDATION_ERROR',
        ]);
        const errors = res.body.error.data.errors as Array<{ path: string; code: string; message: string }>;
        expect([JSON.stringify(body), errors.map((e) => [e.path, e.code])]).toEqual([
          JSON.stringify(body),
          expected,
        ]);
        for (const e of errors) {
          expect(e.message).toEqual(expect.any(String));
        }
      }
      expect(await list()).toEqual(before);
    });

    it("refuses the names of the account's stored state in any spelling: 400 naming `name`, nothing stored", async () => {
      const before = await list();
      const [{ count: rowsBefore }] = await t.db.query(`SELECT count(*)::int AS count FROM user_fields`);
      for (const name of [
        'passwordHash',
        'mustChangePassword',
        'lockedUntil',
        'LockedUntil',
        'failed_login_count',
      ]) {
        const res = await api('post', '/user-fields', { name, type: 'text' });
        expect([name, res.status, res.body.error?.code]).toEqual([name, 400, 'VALIDATION_ERROR']);
        expect([name, res.body.error.data.errors]).toEqual([
          name,
          [{ path: 'name', code: 'reserved', message: expect.any(String) }],
        ]);
      }
      expect(await list()).toEqual(before);
      const [{ count: rowsAfter }] = await t.db.query(`SELECT count(*)::int AS count FROM user_fields`);
      expect(rowsAfter).toBe(rowsBefore);
      // So no custom value can take such a name: PATCH /me refuses it as an unknown field.
      const res = await api('patch', '/me', { passwordHash: 'x' });
      expect([res.status, res.body.error?.data?.errors]).toEqual([
        400,
        [{ path: 'passwordHash', code: 'unknown_field', message: expect.any(String) }],
      ]);
    });

    it('refuses a taken name, whatever its case or source: 409 DUPLICATE', async () => {
      for (const name of ['nickName', 'NICKNAME', 'department', 'Plan']) {
        const res = await api('post', '/user-fields', { name, type: 'text' });
        expect([name, res.status, res.body.error?.code]).toEqual([name, 409, 'DUPLICATE']);
      }
    });

    it('refuses two concurrent creations of one name: exactly one wins', async () => {
      const results = await Promise.all(
        ['race', 'Race', 'race'].map((name) => api('post', '/user-fields', { name, type: 'text' })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      const winner = results.find((r) => r.status === 201)!.body.item as Definition;
      expect((await api('delete', `/user-fields/${winner.id}`)).status).toBe(200);
    });

    it('GET /user-fields/{id}: 404 NOT_FOUND for an unknown or malformed id', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '123']) {
        const res = await api('get', `/user-fields/${id}`);
        expect([id, res.status, res.body.error?.code]).toEqual([id, 404, 'NOT_FOUND']);
      }
    });

    it('PATCH changes label, required and options: 200 { message, item }', async () => {
      const res = await api('patch', `/user-fields/${tier.id}`, {
        label: 'Membership tier',
        required: false,
        options: ['gold', 'silver', { label: 'Bronze', value: 'bronze' }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          ...tier,
          label: 'Membership tier',
          required: false,
          options: ['gold', 'silver', { label: 'Bronze', value: 'bronze' }],
        },
      });
      tier = res.body.item;
      expect((await api('get', `/user-fields/${tier.id}`)).body).toEqual(tier);
      // Repeating the current name and type is not a change.
      const same = await api('patch', `/user-fields/${nickname.id}`, { name: 'nickName', type: 'text' });
      expect([same.status, same.body.item]).toEqual([200, nickname]);
      // An empty body changes nothing.
      expect((await api('patch', `/user-fields/${nickname.id}`, {})).body.item).toEqual(nickname);
    });

    it('PATCH refuses a rename, a new type, and bad values with paths', async () => {
      const cases: Array<[string, object, Array<[string, string]>]> = [
        [nickname.id, { name: 'alias' }, [['name', 'immutable']]],
        [nickname.id, { type: 'textarea' }, [['type', 'immutable']]],
        [nickname.id, { options: ['a'] }, [['options', 'notAllowed']]],
        [
          nickname.id,
          { label: null, required: 1 },
          [
            ['label', 'isString'],
            ['required', 'isBoolean'],
          ],
        ],
        [tier.id, { options: null }, [['options', 'required']]],
        [tier.id, { options: ['a', 'a'] }, [['options.1', 'duplicate']]],
        [tier.id, { source: 'code' }, [['source', 'unknown_field']]],
        [tier.id, { order: 0 }, [['order', 'unknown_field']]],
      ];
      for (const [id, body, expected] of cases) {
        const res = await api('patch', `/user-fields/${id}`, body);
        expect([JSON.stringify(body), res.status, res.body.error?.code]).toEqual([
          JSON.stringify(body),
          400,
          'VALIDATION_ERROR',
        ]);
        expect(
          res.body.error.data.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        ).toEqual(expected);
      }
      expect((await api('get', `/user-fields/${nickname.id}`)).body).toEqual(nickname);
      expect((await api('get', `/user-fields/${tier.id}`)).body).toEqual(tier);
      const missing = await api('patch', '/user-fields/00000000-0000-4000-8000-000000000000', { label: 'x' });
      expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
    });

    it('lists with page, limit, search and sort', async () => {
      const all = await list();
      const page2 = await api('get', '/user-fields?limit=1&page=2');
      expect(page2.body).toEqual({
        items: [all[1]],
        meta: { total: all.length, page: 2, limit: 1, totalPages: all.length, hasNext: true, hasPrev: true },
      });
      const search = await api('get', '/user-fields?search=TIER');
      expect(search.body.items).toEqual([tier]);
      const byName = await api('get', '/user-fields?sort=-name&limit=500');
      expect(byName.body.items.map((f: Definition) => f.name)).toEqual(
        all.map((f) => f.name).sort((a, b) => b.localeCompare(a)),
      );
      for (const q of ['sort=type', 'limit=0', 'page=x']) {
        const res = await api('get', `/user-fields?${q}`);
        expect([q, res.status, res.body.error?.code]).toEqual([q, 400, 'VALIDATION_ERROR']);
      }
    });

    describe('PATCH /user-fields/reorder', () => {
      it('takes the full new order (code-defined fields too) and answers the List', async () => {
        const before = await list();
        const reversed = [...before].reverse();
        const res = await api('patch', '/user-fields/reorder?limit=500', { ids: reversed.map((f) => f.id) });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          items: reversed.map((f, i) => ({ ...f, order: i })),
          meta: {
            total: before.length,
            page: 1,
            limit: 500,
            totalPages: 1,
            hasNext: false,
            hasPrev: false,
          },
        });
        expect(await list()).toEqual(res.body.items);
        // Upper-case ids name the same fields.
        const back = await api('patch', '/user-fields/reorder?limit=500', {
          ids: before.map((f) => f.id.toUpperCase()),
        });
        expect(back.body.items).toEqual(before.map((f, i) => ({ ...f, order: i })));
      });

      it('answers 400 unless every id is given exactly once, and changes nothing', async () => {
        const before = await list();
        const ids = before.map((f) => f.id);
        const unknown = '00000000-0000-4000-8000-000000000000';
        const cases: Array<[unknown, Array<[string, string]>]> = [
          [ids.slice(1), [['ids', 'incomplete']]],
          [[...ids, ids[0]], [[`ids.${ids.length}`, 'duplicate']]],
          [
            [...ids.slice(1), unknown],
            [
              [`ids.${ids.length - 1}`, 'unknown_id'],
              ['ids', 'incomplete'],
            ],
          ],
          [[...ids, unknown], [[`ids.${ids.length}`, 'unknown_id']]],
          [[...ids.slice(0, -1), 'nope'], [[`ids.${ids.length - 1}`, 'isUUID']]],
          [[...ids.slice(0, -1), 7], [[`ids.${ids.length - 1}`, 'isUUID']]],
          [[], [['ids', 'incomplete']]],
          ['x', [['ids', 'isArray']]],
          [undefined, [['ids', 'isArray']]],
        ];
        for (const [value, expected] of cases) {
          const res = await api('patch', '/user-fields/reorder', value === undefined ? {} : { ids: value });
          expect([JSON.stringify(value), res.status, res.body.error?.code]).toEqual([
            JSON.stringify(value),
            400,
            'VALIDATION_ERROR',
          ]);
          expect(
            res.body.error.data.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
          ).toEqual(expected);
        }
        const extra = await api('patch', '/user-fields/reorder', { ids, order: 1 });
        expect([extra.status, extra.body.error.data.errors[0].path]).toEqual([400, 'order']);
        expect(await list()).toEqual(before);
      });
    });

    it('DELETE removes a UI field: 200 { message, item }; the order closes up', async () => {
      const before = await list();
      const res = await api('delete', `/user-fields/${nickname.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String), item: nickname });
      const after = await list();
      expect(after).toEqual(before.filter((f) => f.id !== nickname.id).map((f, i) => ({ ...f, order: i })));
      const again = await api('delete', `/user-fields/${nickname.id}`);
      expect([again.status, again.body.error.code]).toEqual([404, 'NOT_FOUND']);
      expect((await api('get', `/user-fields/${nickname.id}`)).status).toBe(404);
    });
  });

  describe('values (UserFieldsService, what the users module calls)', () => {
    let fields: UserFieldsService;

    beforeAll(() => {
      fields = t.app.get(UserFieldsService);
    });

    async function problems(input: Record<string, unknown>, partial: boolean) {
      try {
        await fields.validateValues(input, { partial });
      } catch (e) {
        expect(e).toBeInstanceOf(ServiceError);
        const err = e as ServiceError;
        expect([err.code, err.status]).toEqual(['VALIDATION_ERROR', 400]);
        return (err.data?.errors as Array<{ path: string; code: string }>).map((i) => [i.path, i.code]);
      }
      return [];
    }

    it('validates by the current definitions, including a field created a moment ago on this instance', async () => {
      expect(await problems({ shoeSize: 44 }, true)).toEqual([['shoeSize', 'unknown_field']]);
      const shoe = await createField({ name: 'shoeSize', type: 'number' });
      expect(await fields.validateValues({ shoeSize: '44' }, { partial: true })).toEqual({ shoeSize: 44 });
      expect(fields.present({ shoeSize: 44 })).toMatchObject({ shoeSize: 44 });
      await api('delete', `/user-fields/${shoe.id}`);
      expect(await problems({ shoeSize: 44 }, true)).toEqual([['shoeSize', 'unknown_field']]);
      expect(fields.present({ shoeSize: 44 })).not.toHaveProperty('shoeSize');
    });

    it('reports every problem with the field name as path', async () => {
      expect(
        await problems(
          { department: '  ', plan: 'enterprise', tier: 'gold', email: 'x@y.z', other: 1 },
          false,
        ),
      ).toEqual([
        ['department', 'required'],
        ['plan', 'isIn'],
        ['email', 'unknown_field'],
        ['other', 'unknown_field'],
      ]);
      expect(await problems({}, false)).toEqual([['department', 'required']]);
      expect(await problems({}, true)).toEqual([]);
      expect(await fields.validateValues({ department: ' Sales ', plan: 'pro' }, { partial: false })).toEqual(
        {
          department: 'Sales',
          plan: 'pro',
        },
      );
    });

    it('refuses exactly what PostgreSQL cannot store (NUL, unpaired surrogates) instead of failing with 500', async () => {
      for (const bad of ['a\u0000b', 'a\ud800b']) {
        await expect(t.db.query(`SELECT $1::jsonb AS v`, [JSON.stringify({ v: bad })])).rejects.toThrow();
        expect(await problems({ department: bad }, true)).toEqual([['department', 'isString']]);
      }
      const [row] = await t.db.query(`SELECT $1::jsonb AS v`, [JSON.stringify({ v: 'ok 😀' })]);
      expect(row.v).toEqual({ v: 'ok 😀' });
    });

    it('present() shows defined fields only, code- and UI-defined alike', async () => {
      const custom = { department: 'Sales', plan: 'pro', tier: 'gold', removed: 'stale' };
      expect(fields.present(custom)).toEqual({ department: 'Sales', plan: 'pro', tier: 'gold' });
      expect(fields.present({})).toEqual({ department: null, plan: null, tier: null });
      const defs = await fields.definitions();
      expect(defs.map((d) => d.name)).toEqual(['department', 'plan', 'tier']);
    });

    it('another instance that hears no change notification sees a change within 5 s (its cache bound), and its own writes at once', async () => {
      const other = await createTestApp({ database: t.database, config: { users: { fields: CODE_FIELDS } } });
      const now = Date.now.bind(Date);
      try {
        const theirs = other.app.get(UserFieldsService);
        expect((await theirs.definitions()).map((d) => d.name)).toEqual(['department', 'plan', 'tier']);
        // The notification path down (propagation.e2e-spec.ts covers it up): the TTL is the bound.
        await other.app.get(ChangeBus).onApplicationShutdown();
        const room = await createField({ name: 'room', type: 'text' });
        // Still cached over there...
        expect((await theirs.definitions()).map((d) => d.name)).not.toContain('room');
        // ...until 5 s have passed.
        const spy = jest.spyOn(Date, 'now').mockImplementation(() => now() + 5001);
        try {
          expect((await theirs.definitions()).map((d) => d.name)).toContain('room');
        } finally {
          spy.mockRestore();
        }
        await api('delete', `/user-fields/${room.id}`);
      } finally {
        await other.close();
      }
    });
  });

  describe('access (SPEC 4.2)', () => {
    const routes = (id: string): Array<[Method, string, object | undefined, string]> => [
      ['get', '/user-fields', undefined, 'read-settings'],
      ['get', `/user-fields/${id}`, undefined, 'read-settings'],
      [
        'post',
        '/user-fields',
        { name: `f${Math.random().toString(36).slice(2, 8)}`, type: 'text' },
        'create-settings',
      ],
      ['patch', '/user-fields/reorder', { ids: [] as string[] }, 'update-settings'],
      ['patch', `/user-fields/${id}`, { label: 'Renamed' }, 'update-settings'],
      ['delete', `/user-fields/${id}`, undefined, 'delete-settings'],
    ];

    it('401 AUTH_REQUIRED without credentials', async () => {
      for (const [method, path, body] of routes('00000000-0000-4000-8000-000000000000')) {
        const res = await api(method, path, body, null);
        expect([method, path, res.status, res.body.error?.code]).toEqual([
          method,
          path,
          401,
          'AUTH_REQUIRED',
        ]);
      }
    });

    it('403 FORBIDDEN without the permission; success with a role holding exactly it', async () => {
      const holders: Record<string, string> = {};
      for (const p of ['read-settings', 'create-settings', 'update-settings', 'delete-settings']) {
        holders[p] = await tokenWith(p);
      }
      const nothing = await tokenWith();
      // manage-settings is not one of these routes' permissions.
      const manager = await tokenWith('manage-settings');
      const target = await createField({ name: 'accessTarget', type: 'text' });
      for (const [method, path, body, permission] of routes(target.id)) {
        for (const [who, bearer] of [
          ['nothing', nothing],
          ['manage-settings', manager],
          ...Object.entries(holders).filter(([p]) => p !== permission),
        ]) {
          const res = await api(method, path, body, bearer);
          expect([method, path, who, res.status, res.body.error?.code]).toEqual([
            method,
            path,
            who,
            403,
            'FORBIDDEN',
          ]);
        }
        let sent = body;
        if (path === '/user-fields/reorder') {
          sent = { ids: (await list()).map((f) => f.id) };
        }
        const res = await api(method, path, sent, holders[permission]);
        expect([method, path, res.status]).toEqual([method, path, method === 'post' ? 201 : 200]);
      }
      expect((await api('get', `/user-fields/${target.id}`)).status).toBe(404);
    });
  });
});
