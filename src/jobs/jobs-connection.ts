import type PgBoss from 'pg-boss';
import type { DataSourceOptions } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';

/** Settings of the service's pool that pg-boss's own pool does not share (it sets its own). */
const POOL_OWN = new Set(['max', 'min', 'application_name', 'statement_timeout']);

/**
 * pg-boss's connection settings from the service's TypeORM DataSource, built as TypeORM builds
 * its pool (PostgresDriver.createPool): the credentials (the primary's, when replicated: jobs
 * write), `ssl` and `connectTimeoutMS`, then `extra` over them, so TLS, keep-alive and the like set
 * in `extra` reach pg-boss's pool too.
 */
export function jobsConnectionOptions(options: DataSourceOptions): PgBoss.DatabaseOptions {
  const o = options as PostgresDataSourceOptions;
  const c = o.replication?.master ?? o;
  const extra = Object.entries((o.extra ?? {}) as Record<string, unknown>).filter(([k]) => !POOL_OWN.has(k));
  const settings: Record<string, unknown> = {
    connectionString: c.url,
    host: c.host,
    port: c.port,
    user: c.username,
    password: c.password,
    database: c.database,
    ssl: c.ssl,
    // As the service's own pool (data-source.ts): a database that does not answer fails a poll
    // after 5 s instead of hanging it.
    connectionTimeoutMillis: o.connectTimeoutMS ?? 5000,
    ...Object.fromEntries(extra),
  };
  return Object.fromEntries(
    Object.entries(settings).filter(([, v]) => v !== undefined),
  ) as PgBoss.DatabaseOptions;
}
