import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/database/embedded-postgres';
import { TEST_SECRET } from './test-app';

export { freePort };

const ROOT = join(__dirname, '..', '..');

const FROM_SOURCE = ['-r', join(ROOT, 'test', 'utils', 'swc-register.cjs'), join(ROOT, 'src', 'main.ts')];

export interface ServerProcessOptions {
  /** More environment variables. */
  env?: Record<string, string>;
  /**
   * Started as a user does, by `npm start`: package.json's own start script, with the built
   * `dist/src/main.js` replaced by the sources (so no build is needed). The process is npm's.
   */
  npmStart?: boolean;
}

/**
 * The service as a real server process, from source (`test/utils/swc-register.cjs`, no build), in
 * production mode on `database` with the config file given: for tests that kill it (`kill -9`) or
 * signal it. Resolves once it listens; rejects with its output when it exits or takes over 90 s.
 * `output()` is what it printed so far.
 */
export function startServerProcess(
  database: string,
  configFile: string,
  port: number,
  opts: ServerProcessOptions = {},
): Promise<ChildProcess & { output(): string }> {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    NEXT_PUBLIC_APP_URL: 'http://localhost',
    DATABASE_URL: database,
    SVC_SECRET: TEST_SECRET,
    SVC_CONFIG: configFile,
    HOST: '127.0.0.1',
    PORT: String(port),
    ...opts.env,
  };
  const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
  let proc: ChildProcess;
  if (opts.npmStart) {
    const start = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start;
    if (!start.includes('dist/src/main.js')) {
      throw new Error(`the start script no longer runs dist/src/main.js: ${start}`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-npm-start-'));
    const script = start.replace('dist/src/main.js', FROM_SOURCE.map((a) => JSON.stringify(a)).join(' '));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'svc-start', version: '0.0.0', private: true, scripts: { start: script } }),
    );
    proc = spawn('npm', ['start', '--silent'], { cwd: dir, env, stdio });
  } else {
    proc = spawn(process.execPath, FROM_SOURCE, { cwd: ROOT, env, stdio });
  }
  let out = '';
  const started = Object.assign(proc, { output: () => out });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), 90_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      if (/listening on/.test(out)) {
        clearTimeout(timer);
        resolve(started);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}):\n${out}`));
    });
  });
}
