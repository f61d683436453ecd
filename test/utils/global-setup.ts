import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../src/database/data-source';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { databaseUrl, withAdmin } from './test-db';

/**
 * Starts the embedded PostgreSQL unless DATABASE_URL names a server, then migrates a template
 * database once; every test file clones it (CREATE DATABASE ... TEMPLATE).
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: join(__dirname, '..', '..', '.svc-test', 'shared'),
      port: Number(process.env.SVC_TEST_PG_PORT ?? 54339),
      database: 'postgres',
      log: (level, m) => {
        if (level === 'error') {
          process.stderr.write(`[embedded pg] ${m}\n`);
        }
      },
    });
    (globalThis as { __svcEmbedded?: unknown }).__svcEmbedded = embedded;
    adminUrl = embedded.adminUrl;
    // We own this server: databases left by an interrupted earlier run can go.
    await withAdmin(async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'svc\\_t\\_%' OR datname LIKE 'svc\\_tpl\\_%'`,
      );
      for (const { datname } of rows) {
        await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }, adminUrl);
  }
  const template = `svc_tpl_${runId}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${template}"`), adminUrl);
  const ds = await new DataSource(
    dataSourceOptions({ url: databaseUrl(adminUrl, template), poolSize: 2 }),
  ).initialize();
  try {
    await runMigrations(ds);
  } finally {
    await ds.destroy();
  }
  process.env.SVC_TEST_ADMIN_URL = adminUrl;
  process.env.SVC_TEST_TEMPLATE = template;
  process.env.SVC_TEST_RUN_ID = runId;
}
