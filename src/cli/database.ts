import { DataSource } from 'typeorm';
import { loadEnv } from '../config/env';
import { dataSourceOptions } from '../database/data-source';
import { EmbeddedDatabase, startEmbeddedPostgres } from '../database/embedded-postgres';

/**
 * For command-line tools: the database the server would use (DATABASE_URL, else the embedded
 * one). While the service runs, its embedded server is used as it is (stopping it would take
 * the database from under the service); otherwise one is started for the command and stopped
 * after it.
 */
export async function withCliDatabase<T>(fn: (ds: DataSource) => Promise<T>): Promise<T> {
  const env = loadEnv();
  let embedded: EmbeddedDatabase | undefined;
  let url = env.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: env.dataDir,
      port: env.embeddedPgPort,
      pickFreePort: !process.env.SVC_EMBEDDED_PG_PORT,
      useRunning: true,
      log: (level, message) => {
        if (level !== 'info') {
          process.stderr.write(`${message}\n`);
        }
      },
    });
    url = embedded.url;
  }
  const ds = await new DataSource(dataSourceOptions({ url, poolSize: 2 })).initialize();
  try {
    return await fn(ds);
  } finally {
    await ds.destroy();
    await embedded?.stop();
  }
}

export function runCli(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
