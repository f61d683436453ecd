import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../src/database/data-source';
import {
  freePort,
  isAlive,
  startEmbeddedPostgres,
  stopLeftoverPostgres,
} from '../../src/database/embedded-postgres';
import { databaseUrl, withAdmin } from './test-db';

const TEST_DIR = join(__dirname, '..', '..', '.svc-test');

/**
 * Starts an embedded PostgreSQL of this run's own (its own data directory and a free port, so two
 * runs at once never touch each other) unless DATABASE_URL names a server, then migrates a
 * template database once; every test file clones it (CREATE DATABASE ... TEMPLATE).
 */
export default async function globalSetup(): Promise<void> {
  // SVC_TEST_ADMIN_BUILD=0 keeps the dist/admin there is (the server-only tests, while the app's sources are mid-edit).
  if (process.env.SVC_TEST_ADMIN_BUILD !== '0') {
    buildAdminApp();
  }
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    await removeStaleRuns();
    const dataDir = join(TEST_DIR, `run-${process.pid}`);
    const embedded = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      database: 'postgres',
      log: (level, m) => {
        if (level === 'error') {
          process.stderr.write(`[embedded pg] ${m}\n`);
        }
      },
    });
    (globalThis as { __svcEmbedded?: unknown }).__svcEmbedded = { embedded, dataDir };
    adminUrl = embedded.adminUrl;
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

/** Clusters of runs that were killed before their teardown: stop their postgres, drop the files. */
async function removeStaleRuns(): Promise<void> {
  if (!existsSync(TEST_DIR)) {
    return;
  }
  for (const name of readdirSync(TEST_DIR)) {
    const m = /^run-(\d+)$/.exec(name);
    if (m && !isAlive(Number(m[1]))) {
      await stopLeftoverPostgres(join(TEST_DIR, name, 'pg'));
      rmSync(join(TEST_DIR, name), { recursive: true, force: true });
    }
  }
}

/**
 * The admin app's files (dist/admin), built from the sources once per run (about a second), so the
 * tests that serve it never see a stale build or none.
 */
function buildAdminApp(): void {
  const root = join(__dirname, '..', '..');
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'admin/vite.config.mts',
      '--logLevel',
      'error',
    ],
    // Jest sets NODE_ENV=test, which would bundle React's development build: build what users get.
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
}
