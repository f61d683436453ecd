import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command-line tool run from source (jiti, no build) with exactly `env`, as npm would run it. */
export function runCli(
  name: 'migrate' | 'seed-admin',
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'jiti', 'lib', 'jiti-cli.mjs'),
        join(ROOT, 'src', 'cli', `${name}.ts`),
        ...args,
      ],
      { cwd: ROOT, env: { ...env, JITI_FS_CACHE: 'false' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
