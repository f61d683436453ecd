import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { CliResult, runCli } from '../utils/cli';

const ROOT = join(__dirname, '..', '..');
const DATA_DIR = join(ROOT, '.svc-test', `embedded-${process.pid}`);
const OTHER_DIRS = [`${DATA_DIR}-second`, `${DATA_DIR}-third`];
const PORT = 54360 + (Number(process.env.JEST_WORKER_ID ?? 1) % 20);

interface Child {
  proc: ChildProcess;
  url: string;
}

function startChild(dataDir = DATA_DIR, flags: string[] = []): Promise<Child> {
  const proc = spawn(
    process.execPath,
    [join(__dirname, '..', 'utils', 'embedded-child.cjs'), dataDir, String(PORT), ...flags],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`embedded child did not start: ${out}`)), 60_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, url: m[1] });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`embedded child exited with ${code}: ${out}`));
    });
  });
}

function exited(proc: ChildProcess): Promise<void> {
  return proc.exitCode !== null || proc.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => proc.once('exit', () => r()));
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}

function postmasterPid(): number {
  return Number(readFileSync(join(DATA_DIR, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** A command-line tool on DATA_DIR's embedded database. */
function cli(
  name: 'migrate' | 'seed-admin',
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: DATA_DIR };
  // The embedded database, and no port given: the tool must find the server's port itself.
  delete env.DATABASE_URL;
  delete env.SVC_EMBEDDED_PG_PORT;
  return runCli(name, args, { ...env, ...extraEnv });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Tests the launcher itself; once is enough, so the DATABASE_URL run leaves it out.
const describeEmbedded = process.env.DATABASE_URL ? describe.skip : describe;

describeEmbedded('embedded PostgreSQL keeps data', () => {
  let current: Child | undefined;
  let second: Child | undefined;

  afterAll(async () => {
    for (const child of [current, second]) {
      if (child) {
        child.proc.kill('SIGTERM');
        await exited(child.proc);
      }
    }
    for (const dir of [DATA_DIR, ...OTHER_DIRS]) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('across a clean restart', async () => {
    current = await startChild();
    expect(existsSync(join(DATA_DIR, 'pg', 'PG_VERSION'))).toBe(true);
    await query(current.url, 'CREATE TABLE notes (body text NOT NULL)');
    await query(current.url, `INSERT INTO notes VALUES ('before restart')`);
    const pid = postmasterPid();
    current.proc.kill('SIGTERM');
    await exited(current.proc);
    expect(alive(pid)).toBe(false); // a clean stop stops postgres too

    current = await startChild();
    const rows = await query<{ body: string }>(current.url, 'SELECT body FROM notes');
    expect(rows.map((r) => r.body)).toEqual(['before restart']);
  }, 90_000);

  it('while its owner runs, a command-line tool uses its server and leaves it running', async () => {
    const pid = postmasterPid();
    // A connection of the owner's, open across the commands: a restarted server would break it.
    const held = new Client({ connectionString: current!.url });
    held.on('error', () => undefined); // surfaces as a failed query below
    await held.connect();
    try {
      const migrate = await cli('migrate', []);
      expect(migrate).toMatchObject({ code: 0, stderr: '' });
      expect(migrate.stdout).toMatch(/^applied: /);
      const email = 'owner-live@example.com';
      const seed = await cli('seed-admin', ['--email', email, '--password', 'A-strong-1']);
      expect(seed).toMatchObject({ code: 0, stderr: '' });

      expect((await held.query<{ email: string }>('SELECT email FROM users')).rows).toEqual([{ email }]);
      expect(postmasterPid()).toBe(pid);
      expect(current!.proc.exitCode).toBeNull();
    } finally {
      await held.end();
    }

    // A second server on the same data directory is refused instead of stopping the first's.
    await expect(startChild()).rejects.toThrow(
      new RegExp(
        `exited with 1: [\\s\\S]*FAILED .*run by another process \\(pid ${current!.proc.pid}, port ${PORT}`,
      ),
    );
    expect(postmasterPid()).toBe(pid);
    expect(await query(current!.url, 'SELECT count(*)::int AS n FROM notes')).toEqual([{ n: 1 }]);
  }, 120_000);

  it('across a kill -9 of the Node process (the orphaned postgres is stopped and replaced)', async () => {
    await query(current!.url, `INSERT INTO notes VALUES ('before kill -9 node')`);
    const orphan = postmasterPid();
    current!.proc.kill('SIGKILL');
    await exited(current!.proc);
    expect(alive(orphan)).toBe(true); // what the launcher has to deal with

    // A command-line tool stops it too (its owner is gone), runs on a server of its own, then
    // stops that.
    const migrate = await cli('migrate', [], { SVC_EMBEDDED_PG_PORT: String(PORT) });
    expect(migrate).toMatchObject({ code: 0, stdout: 'the database is up to date\n' });
    expect(migrate.stderr).toMatch(/stopping a leftover embedded PostgreSQL/);
    expect(alive(orphan)).toBe(false);
    expect(existsSync(join(DATA_DIR, 'pg', 'postmaster.pid'))).toBe(false);

    current = await startChild();
    const rows = await query<{ body: string }>(current.url, 'SELECT body FROM notes ORDER BY body');
    expect(rows.map((r) => r.body)).toEqual(['before kill -9 node', 'before restart']);
  }, 120_000);

  it('across a kill -9 of postgres while the service runs (restarted, nothing committed lost)', async () => {
    await query(current!.url, `INSERT INTO notes VALUES ('before kill -9 postgres')`);
    const pid = postmasterPid();
    process.kill(pid, 'SIGKILL');
    let rows: Array<{ n: number }> = [];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        rows = await query<{ n: number }>(current!.url, 'SELECT count(*)::int AS n FROM notes');
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    expect(rows).toEqual([{ n: 3 }]);
    expect(postmasterPid()).not.toBe(pid);
  }, 90_000);
  it('a second data directory gets a free port when the default one is taken', async () => {
    second = await startChild(OTHER_DIRS[0], ['--pick-free-port']);
    const port = Number(new URL(second.url).port);
    expect(port).not.toBe(PORT);
    expect(await query(second.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(await query(current!.url, 'SELECT count(*)::int AS n FROM notes')).toEqual([{ n: 3 }]);

    // A port the user chose is kept: taken, it stops the start with what to do (before initdb).
    await expect(startChild(OTHER_DIRS[1])).rejects.toThrow(
      new RegExp(
        `port ${PORT} on 127.0.0.1 is in use .*set SVC_EMBEDDED_PG_PORT to a free port, or leave it unset`,
      ),
    );
    expect(existsSync(join(OTHER_DIRS[1], 'pg'))).toBe(false);
  }, 90_000);

  it('a postgres that cannot be restarted ends the process with status 1 (for a supervisor)', async () => {
    const pgVersion = join(DATA_DIR, 'pg', 'PG_VERSION');
    // The running server never reads it again; every restart refuses a directory without it.
    renameSync(pgVersion, `${pgVersion}.away`);
    try {
      const proc = current!.proc;
      let stderr = '';
      proc.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
      process.kill(postmasterPid(), 'SIGKILL');
      // Five attempts 1 to 5 s apart: about 15 s, then the exit.
      const deadline = new Promise<'still running'>((r) =>
        setTimeout(() => r('still running'), 45_000).unref(),
      );
      expect(await Promise.race([exited(proc).then(() => 'exited'), deadline])).toBe('exited');
      expect(proc.exitCode).toBe(1);
      expect(stderr).toMatch(/could not be restarted after 5 attempts; giving up/);
      current = undefined;
    } finally {
      renameSync(`${pgVersion}.away`, pgVersion);
    }
  }, 60_000);
});
