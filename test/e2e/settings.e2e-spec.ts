import { SETTINGS_TTL_MS, SettingsService } from '../../src/modules/settings/settings.service';
import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

const ROUTE = '/admin/api/general-settings';

const DEFAULTS = {
  siteName: 'svc',
  siteDescription: null,
  siteUrl: null,
  logoMediaId: null,
  timezone: 'UTC',
  dateFormat: 'YYYY-MM-DD',
  custom: {},
};

describe('general settings', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminId: string;

  const get = (app: TestApp = t, auth: Record<string, string> = admin) => app.http.get(ROUTE).set(auth);
  const patch = (body: unknown, auth: Record<string, string> = admin) =>
    t.http
      .patch(ROUTE)
      .set(auth)
      .send(body as object);

  beforeAll(async () => {
    t = await createTestApp();
    adminId = (await createUser(t, { roles: ['super-admin'], name: 'Ada' })).id;
    admin = await bearerFor(t, adminId);
  });
  afterAll(() => t.close());

  it('answers the defaults while nothing is stored', async () => {
    const res = await get().expect(200);
    expect(res.body).toEqual(DEFAULTS);
    expect(await t.app.get(SettingsService).get()).toEqual(DEFAULTS);
  });

  it('needs manage-settings: 401 without credentials, 403 without the permission', async () => {
    const none = await t.http.get(ROUTE).expect(401);
    expect(none.body.error.code).toBe('AUTH_REQUIRED');
    await t.http.patch(ROUTE).send({ siteName: 'x' }).expect(401);

    const reader = await bearerFor(
      t,
      (await userWithPermissions(t, ['read-settings', 'update-settings'])).id,
    );
    expect((await get(t, reader).expect(403)).body.error.code).toBe('FORBIDDEN');
    expect((await patch({ siteName: 'x' }, reader).expect(403)).body.error.code).toBe('FORBIDDEN');

    const manager = await bearerFor(t, (await userWithPermissions(t, ['manage-settings'])).id);
    await get(t, manager).expect(200);
    await patch({}, manager).expect(200);
    expect((await get().expect(200)).body).toEqual(DEFAULTS);
  });

  it('PATCH is partial: absent keys keep their values, custom is replaced whole, strings trimmed', async () => {
    const first = await patch({ siteName: '  My site ', custom: { a: 1, nested: { b: [1, 2] } } }).expect(
      200,
    );
    expect(first.body).toEqual({
      message: expect.any(String),
      item: { ...DEFAULTS, siteName: 'My site', custom: { a: 1, nested: { b: [1, 2] } } },
    });

    const second = await patch({
      timezone: 'europe/paris',
      siteUrl: 'https://example.com/blog',
      siteDescription: 'All about things',
      dateFormat: 'DD/MM/YYYY',
      custom: { c: true },
    }).expect(200);
    const expected = {
      siteName: 'My site',
      siteDescription: 'All about things',
      siteUrl: 'https://example.com/blog',
      logoMediaId: null,
      // Stored in its canonical spelling.
      timezone: 'Europe/Paris',
      dateFormat: 'DD/MM/YYYY',
      custom: { c: true },
    };
    expect(second.body.item).toEqual(expected);
    expect((await get().expect(200)).body).toEqual(expected);

    // '' and null clear the optional strings.
    const cleared = await patch({ siteUrl: '', siteDescription: null }).expect(200);
    expect(cleared.body.item).toEqual({ ...expected, siteUrl: null, siteDescription: null });
    expect((await get().expect(200)).body).toEqual({ ...expected, siteUrl: null, siteDescription: null });
  });

  it('refuses an unknown key with 400 VALIDATION_ERROR, changing nothing', async () => {
    const before = (await get().expect(200)).body;
    const res = await patch({ siteName: 'Other', theme: 'dark' }).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.data.errors).toEqual([
      expect.objectContaining({ path: 'theme', code: 'unknown_field' }),
    ]);
    expect((await get().expect(200)).body).toEqual(before);
  });

  it('reports an unknown key together with the problems of the known ones', async () => {
    const before = (await get().expect(200)).body;
    const res = await patch({ theme: 'dark', timezone: 'Mars/Olympus_Mons', siteName: 'Fine' }).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const found = (res.body.error.data.errors as Array<{ path: string; code: string }>).map((e) => [
      e.path,
      e.code,
    ]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['theme', 'unknown_field'],
        ['timezone', 'isTimeZone'],
      ]),
    );
    expect(found).toHaveLength(2);
    expect((await get().expect(200)).body).toEqual(before);
  });

  it('validates every key, reporting every problem at once', async () => {
    const before = (await get().expect(200)).body;
    const res = await patch({
      siteName: '',
      siteUrl: 'ftp://example.com/',
      timezone: 'Mars/Olympus_Mons',
      dateFormat: 'x'.repeat(33),
      logoMediaId: 'not-a-uuid',
      custom: [1, 2],
      siteDescription: 'd'.repeat(501),
    }).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const paths = (res.body.error.data.errors as Array<{ path: string }>).map((e) => e.path).sort();
    expect(paths).toEqual(
      ['custom', 'dateFormat', 'logoMediaId', 'siteDescription', 'siteName', 'siteUrl', 'timezone'].sort(),
    );

    for (const body of [
      { timezone: '+01:00' },
      { timezone: 'Nowhere/City' },
      { timezone: null },
      { timezone: 5 },
      { siteUrl: 'not a url' },
      { siteUrl: 'javascript:alert(1)' },
      { siteUrl: 'https://user:secret@example.com/' },
      { siteUrl: '/relative' },
      { siteName: null },
      { siteName: 'a\nb' },
      { siteName: 'n'.repeat(101) },
      { custom: null },
      { custom: 'text' },
      { custom: { big: 'x'.repeat(70 * 1024) } },
      { dateFormat: '' },
    ]) {
      const r = await patch(body);
      expect([JSON.stringify(body).slice(0, 60), r.status, r.body.error?.code]).toEqual([
        JSON.stringify(body).slice(0, 60),
        400,
        'VALIDATION_ERROR',
      ]);
      expect(r.body.error.data.errors[0].path).toBe(Object.keys(body)[0]);
    }
    expect((await get().expect(200)).body).toEqual(before);
  });

  it('logoMediaId must name an entry of the media collection; a deleted entry reads as null', async () => {
    const missing = await patch({ logoMediaId: '00000000-0000-4000-8000-000000000000' }).expect(400);
    expect(missing.body.error.data.errors).toEqual([
      expect.objectContaining({ path: 'logoMediaId', code: 'notFound' }),
    ]);

    const [media] = await t.db.query(
      `INSERT INTO c_media (filename, "mimeType", filesize) VALUES ('logo.png', 'image/png', 10) RETURNING id`,
    );
    const res = await patch({ logoMediaId: media.id.toUpperCase() }).expect(200);
    expect(res.body.item.logoMediaId).toBe(media.id);
    expect((await get().expect(200)).body.logoMediaId).toBe(media.id);

    await t.db.query(`DELETE FROM c_media WHERE id = $1`, [media.id]);
    // The next write (or the TTL) refreshes the cache: the dangling id reads as null.
    const after = await patch({ dateFormat: 'YYYY-MM-DD' }).expect(200);
    expect(after.body.item.logoMediaId).toBeNull();
    expect((await get().expect(200)).body.logoMediaId).toBeNull();
    await patch({ logoMediaId: null }).expect(200);
  });

  it('audits each write as settings-changed with the keys sent, never their values', async () => {
    await patch({ siteName: 'Audited', custom: { secret: 'value' } }).expect(200);
    const [row] = await t.db.query(
      `SELECT event, actor_id, target, metadata FROM audit_log WHERE event = 'settings-changed' ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toEqual({
      event: 'settings-changed',
      actor_id: adminId,
      target: 'settings:general',
      metadata: { keys: ['siteName', 'custom'] },
    });
  });

  it('SettingsService.get() answers the cached record, frozen, and sees a write at once', async () => {
    const service = t.app.get(SettingsService);
    await patch({ siteName: 'Frozen' }).expect(200);
    const s = await service.get();
    expect(s.siteName).toBe('Frozen');
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.custom)).toBe(true);
    await patch({ siteName: 'Thawed' }).expect(200);
    expect((await service.get()).siteName).toBe('Thawed');
  });

  it('another instance sees a write within the cache bound', async () => {
    const b = await createTestApp({ database: t.database });
    try {
      const onB = await bearerFor(b, adminId);
      await patch({ siteName: 'Before' }).expect(200);
      // b caches what it reads now.
      const start = await get(b, onB).expect(200);
      expect(start.body.siteName).toBe('Before');

      await patch({ siteName: 'After' }).expect(200);
      const since = Date.now();
      // This instance: at once.
      expect((await get().expect(200)).body.siteName).toBe('After');
      let seen = '';
      while (Date.now() - since < SETTINGS_TTL_MS + 2000) {
        seen = (await get(b, onB).expect(200)).body.siteName as string;
        if (seen === 'After') {
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(seen).toBe('After');
      expect(Date.now() - since).toBeLessThanOrEqual(SETTINGS_TTL_MS + 1000);
    } finally {
      await b.close();
    }
  });
});
