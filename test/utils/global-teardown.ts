import { rmSync } from 'node:fs';
import type { EmbeddedDatabase } from '../../src/database/embedded-postgres';
import { withAdmin } from './test-db';

export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env.SVC_TEST_ADMIN_URL;
  const runId = process.env.SVC_TEST_RUN_ID;
  const own = (globalThis as { __svcEmbedded?: { embedded: EmbeddedDatabase; dataDir: string } })
    .__svcEmbedded;
  if (own) {
    // The whole cluster goes: nothing else uses it.
    await own.embedded.stop();
    rmSync(own.dataDir, { recursive: true, force: true });
    return;
  }
  if (adminUrl && runId) {
    await withAdmin(async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
        [`svc\\_t\\_${runId}\\_%`, `svc_tpl_${runId}`],
      );
      for (const { datname } of rows) {
        await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }, adminUrl);
  }
}
