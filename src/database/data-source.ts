import { MigrationExecutor, type DataSource, type DataSourceOptions } from 'typeorm';
import type { PostgresDataSourceOptions as PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { MIGRATIONS } from '../../migrations';
import { MIGRATION_LOCK, sessionLock, sessionUnlock } from './locks';

export { MIGRATION_LOCK_ID } from './locks';

/** Options of the service's own beside the connection (see `dataSourceOptions`). */
interface ServiceDatabaseOptions {
  autoMigrate?: boolean;
  preparedStatements?: boolean;
  /**
   * Each statement's limit in milliseconds (PostgreSQL `statement_timeout`); 0 turns it off.
   * Default 10 s: a hostile query (a `contains` over large text) cannot hold a connection for
   * long. Migrations and schema applies lift it for their own work.
   */
  statementTimeoutMs?: number;
}

export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/** The service's own database: a URL, or a host application's PostgreSQL connection options. */
export type DatabaseConfig =
  | ({ url: string; poolSize?: number } & ServiceDatabaseOptions)
  | (Omit<PostgresConnectionOptions, 'migrations' | 'entities' | 'synchronize'> & ServiceDatabaseOptions);

export const MIGRATIONS_TABLE = 'svc_migrations';

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
  // node-pg sends it as a startup parameter, so `RESET statement_timeout` returns to it.
  const statementTimeout = { statement_timeout: db.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS };
  if ('url' in db && typeof db.url === 'string' && !('type' in db)) {
    return {
      ...base,
      type: 'postgres',
      url: db.url,
      poolSize: db.poolSize ?? 10,
      extra: { connectionTimeoutMillis: 5000, ...statementTimeout },
    };
  }
  const {
    autoMigrate: _ignored,
    preparedStatements: _alsoIgnored,
    statementTimeoutMs: _handled,
    ...rest
  } = db as PostgresConnectionOptions & ServiceDatabaseOptions;
  const extra = (rest.extra ?? {}) as Record<string, unknown>;
  return { ...rest, ...base, type: 'postgres', extra: { ...statementTimeout, ...extra } };
}

/**
 * Inside a transaction: lifts the statement timeout until it ends. Schema writes take it as their
 * first statement: their DDL may rewrite a large table, and their lock may wait behind another.
 */
export async function withoutStatementTimeout(em: { query(sql: string): Promise<unknown> }): Promise<void> {
  await em.query('SET LOCAL statement_timeout = 0');
}

/**
 * The boot line of the database stage: connected, and what the migrations did (`ran`: the ones
 * applied now; null when automatic migrations are off).
 */
export function databaseReady(database: string, ran: readonly string[] | null): string {
  const name = database ? `database "${database}" ready` : 'database ready';
  if (ran === null) {
    return `${name}; migrations not run (automatic migrations are off)`;
  }
  return ran.length
    ? `${name}; ${ran.length} migration${ran.length === 1 ? '' : 's'} applied`
    : `${name}; schema up to date`;
}

/** Runs pending migrations, one instance at a time (a session advisory lock), each in its own transaction. */
export async function runMigrations(ds: DataSource): Promise<string[]> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    // No statement timeout on this session while migrations run: they may rewrite large tables,
    // and the lock may wait behind another instance's run.
    await runner.query('SET statement_timeout = 0');
    // Serialises migration runs of several instances booting at once, of any version (locks.ts).
    await sessionLock(runner, MIGRATION_LOCK);
    const executor = new MigrationExecutor(ds, runner);
    executor.transaction = 'each';
    const ran = await executor.executePendingMigrations();
    return ran.map((m) => m.name);
  } finally {
    await runner.query('RESET statement_timeout').catch(() => undefined);
    await sessionUnlock(runner, MIGRATION_LOCK).catch(() => undefined);
    await runner.release();
  }
}
