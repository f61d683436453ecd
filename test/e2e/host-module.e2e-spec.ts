import { Controller, Get, Module, NotFoundException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { SvcModule } from '../../src';
import { LogCapture } from '../utils/log-capture';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { TEST_SECRET } from '../utils/test-app';

@Controller('shop')
class ShopController {
  @Get('items')
  items() {
    return [{ sku: 'A1' }];
  }

  @Get('missing')
  missing(): never {
    throw new NotFoundException('no such item');
  }
}

const HOST_SETTINGS = Symbol('HOST_SETTINGS');

@Module({ providers: [{ provide: HOST_SETTINGS, useValue: { dbUrl: '' } }], exports: [HOST_SETTINGS] })
class HostSettingsModule {}

describe('SvcModule inside a host Nest application', () => {
  let db: TestDatabase;
  let app: NestExpressApplication;
  const settings = { dbUrl: '' };

  beforeAll(async () => {
    db = await createTestDatabase();
    settings.dbUrl = db.url;

    @Module({
      imports: [
        SvcModule.forRootAsync({
          imports: [HostSettingsModule],
          inject: [HOST_SETTINGS],
          // The host hands over its own connection settings; the service runs its migrations on them.
          useFactory: () => ({
            secret: TEST_SECRET,
            database: { type: 'postgres', url: settings.dbUrl, poolSize: 3 },
            logger: { level: 'info', stream: new LogCapture() },
          }),
        }),
      ],
      controllers: [ShopController],
    })
    class HostAppModule {}

    // A plain host: Nest's defaults, its own body parser, no configureApp().
    app = await NestFactory.create<NestExpressApplication>(HostAppModule, { logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it("serves the host's own routes untouched", async () => {
    const res = await request(app.getHttpServer()).get('/shop/items');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ sku: 'A1' }]);
    // The host's errors keep Nest's default shape, not the service's envelope.
    const missing = await request(app.getHttpServer()).get('/shop/missing');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.body).toMatchObject({ statusCode: 404, message: 'no such item' });
  });

  it('serves /api/health beside them', async () => {
    const res = await request(app.getHttpServer()).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, database: { ok: true, dialect: 'postgres' } });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers unknown /admin/api routes with its own envelope', async () => {
    const res = await request(app.getHttpServer()).get('/admin/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('ran the migrations on the database the host named', async () => {
    const { Client } = await import('pg');
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      const { rows } = await c.query(`SELECT count(*)::int AS n FROM svc_migrations`);
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await c.end();
    }
  });
});
