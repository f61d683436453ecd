import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../src/database/embedded-postgres';
import { TEST_SECRET } from './test-app';

export { freePort };

const ROOT = join(__dirname, '..', '..');

/**
 * The service as a real server process, from source (`test/utils/swc-register.cjs`, no build), in
 * production mode on `database` with the config file given: for tests that kill it (`kill -9`).
 * Resolves once it listens; rejects with its output when it exits or takes over 90 s.
 */
export function startServerProcess(
  database: string,
  configFile: string,
  port: number,
): Promise<ChildProcess> {
  const proc = spawn(
    process.execPath,
    ['-r', join(ROOT, 'test', 'utils', 'swc-register.cjs'), 'src/main.ts'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        NEXT_PUBLIC_APP_URL: 'http://localhost',
        DATABASE_URL: database,
        SVC_SECRET: TEST_SECRET,
        SVC_CONFIG: configFile,
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), 90_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      if (/listening on/.test(out)) {
        clearTimeout(timer);
        resolve(proc);
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
