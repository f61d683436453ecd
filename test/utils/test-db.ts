import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Each test file gets its own database, cloned from the template the global setup migrated, so
 * files run in parallel and never see each other's rows.
 */
export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export function testEnv(): { adminUrl: string; template: string; runId: string } {
  const adminUrl = process.env.SVC_TEST_ADMIN_URL;
  const template = process.env.SVC_TEST_TEMPLATE;
  const runId = process.env.SVC_TEST_RUN_ID;
  if (!adminUrl || !template || !runId) {
    throw new Error('test database settings missing: run the tests through jest (globalSetup)');
  }
  return { adminUrl, template, runId };
}

export function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function withAdmin<T>(fn: (c: Client) => Promise<T>, adminUrl = testEnv().adminUrl): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const { adminUrl, template, runId } = testEnv();
  const name = `svc_t_${runId}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return {
    name,
    url: databaseUrl(adminUrl, name),
    drop: () =>
      withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
