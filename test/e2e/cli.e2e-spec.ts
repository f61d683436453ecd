import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CliResult, runCli } from '../utils/cli';

const ROOT = join(__dirname, '..', '..');
// Never created when the tools stop where they should: before any database work.
const DATA_DIR = join(ROOT, '.svc-test', `cli-${process.pid}`);

/** A tool run as npm would run it (`npm`: what npm adds), on DATA_DIR's embedded database. */
function cli(
  name: 'migrate' | 'seed-admin',
  args: string[],
  npm: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: DATA_DIR };
  delete env.DATABASE_URL;
  for (const key of Object.keys(env).filter((k) => k.startsWith('npm_config_'))) {
    delete env[key]; // whatever npm set for the jest run itself
  }
  return runCli(name, args, { ...env, ...npm });
}

describe('command-line tools', () => {
  afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

  it('answer --help and -h with their usage on stdout, touching no database', async () => {
    const seed = await cli('seed-admin', ['--help']);
    expect(seed).toMatchObject({ code: 0, stderr: '' });
    expect(seed.stdout).toMatch(
      /^Usage: npm run seed:admin -- --email <address> --password <password> \[--name <name>\]\n/,
    );
    expect(seed.stdout).toMatch(/--name <name> +its display name/);

    const migrate = await cli('migrate', ['-h']);
    expect(migrate).toMatchObject({ code: 0, stderr: '' });
    expect(migrate.stdout).toMatch(/^Usage: npm run migrate\n[\s\S]*-h, --help/);

    expect(existsSync(DATA_DIR)).toBe(false);
  }, 60_000);

  it('tell options npm kept for itself (a missing --) apart, touching no database', async () => {
    // What npm 11 hands over for `npm run seed:admin --email a@b.co --password A-strong-1`:
    // `--email` is one of npm's own flags, so its value becomes a stray argument.
    const spaced = await cli('seed-admin', ['a@b.co'], {
      npm_config_email: 'true',
      npm_config_password: 'A-strong-1',
    });
    expect(spaced.code).toBe(1);
    expect(spaced.stdout).toBe('');
    expect(spaced.stderr).toBe(
      'npm took --email, --password for itself: options go after `--`, as in ' +
        '`npm run seed:admin -- --email ... --password ...`\n',
    );

    // ... and for `npm run seed:admin --email=a@b.co --name=Ada`: no argument at all.
    const joined = await cli('seed-admin', [], { npm_config_email: 'a@b.co', npm_config_name: 'Ada' });
    expect(joined.code).toBe(1);
    expect(joined.stderr).toMatch(/`npm run seed:admin -- --email \.\.\. --name \.\.\.`/);

    // Options given after `--` reach the tool: npm's settings are not looked at then.
    const proper = await cli('seed-admin', ['--email', 'a@b.co', '--bogus'], { npm_config_email: 'true' });
    expect(proper.code).toBe(1);
    expect(proper.stderr).toMatch(/Unknown option '--bogus'/);

    expect(existsSync(DATA_DIR)).toBe(false);
  }, 60_000);
});
