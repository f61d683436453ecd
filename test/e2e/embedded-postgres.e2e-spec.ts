import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

const ROOT = join(__dirname, '..', '..');
const DATA_DIR = join(ROOT, '.svc-test', `embedded-${process.pid}`);
const PORT = 54360 + (Number(process.env.JEST_WORKER_ID ?? 1) % 20);

interface Child {
  proc: ChildProcess;
  url: string;
}

function startChild(): Promise<Child> {
  const proc = spawn(
    process.execPath,
    [join(__dirname, '..', 'utils', 'embedded-child.cjs'), DATA_DIR, String(PORT)],
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

  afterAll(async () => {
    if (current) {
      current.proc.kill('SIGTERM');
      await exited(current.proc);
    }
    rmSync(DATA_DIR, { recursive: true, force: true });
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

  it('across a kill -9 of the Node process (the orphaned postgres is stopped and replaced)', async () => {
    await query(current!.url, `INSERT INTO notes VALUES ('before kill -9 node')`);
    const orphan = postmasterPid();
    current!.proc.kill('SIGKILL');
    await exited(current!.proc);
    expect(alive(orphan)).toBe(true); // what the launcher has to deal with

    current = await startChild();
    expect(alive(orphan)).toBe(false);
    const rows = await query<{ body: string }>(current.url, 'SELECT body FROM notes ORDER BY body');
    expect(rows.map((r) => r.body)).toEqual(['before kill -9 node', 'before restart']);
  }, 90_000);

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
});
