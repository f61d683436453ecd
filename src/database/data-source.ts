import type { DataSource, DataSourceOptions } from 'typeorm';
import type { PostgresDataSourceOptions as PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { MIGRATIONS } from '../../migrations';

/** The service's own database: a URL, or a host application's PostgreSQL connection options. */
export type DatabaseConfig =
  | { url: string; poolSize?: number; autoMigrate?: boolean; preparedStatements?: boolean }
  | (Omit<PostgresConnectionOptions, 'migrations' | 'entities' | 'synchronize'> & {
      autoMigrate?: boolean;
      preparedStatements?: boolean;
    });

export const MIGRATIONS_TABLE = 'svc_migrations';
/** Arbitrary constant: serialises migration runs of several instances booting at once. */
const MIGRATION_LOCK_ID = 7_310_240_001;

/** The one place DataSource options are built: used by the app, the CLI (ormconfig.ts) and the tests. */
export function dataSourceOptions(db: DatabaseConfig): DataSourceOptions {
  const base = {
    migrations: MIGRATIONS,
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsTransactionMode: 'each' as const,
    entities: [],
    synchronize: false,
    logging: false,
    applicationName: 'svc',
  };
  if ('url' in db && typeof db.url === 'string' && !('type' in db)) {
    return {
      ...base,
      type: 'postgres',
      url: db.url,
      poolSize: db.poolSize ?? 10,
      extra: { connectionTimeoutMillis: 5000 },
    };
  }
  const {
    autoMigrate: _ignored,
    preparedStatements: _alsoIgnored,
    ...rest
  } = db as PostgresConnectionOptions & { autoMigrate?: boolean; preparedStatements?: boolean };
  return { ...rest, ...base, type: 'postgres' };
}

/** Runs pending migrations, one instance at a time (a session advisory lock), each in its own transaction. */
export async function runMigrations(ds: DataSource): Promise<string[]> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const ran = await ds.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
