// Writes src/client/api.ts, the types of `svc/client`, from the service's OpenAPI document without
// any collection (the routes every installation has), through the same generator as
// `npm run typegen`, formatted by prettier. A test runs it with --check, so the committed types
// cannot drift from the document.
//
//   node scripts/generate-client.mjs                 writes src/client/api.ts
//   node scripts/generate-client.mjs --check         exits 1 when src/client/api.ts is not current
//   node scripts/generate-client.mjs --from <file>   takes the document from a file
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'src', 'client', 'api.ts');
// The command-line tools run from their sources (no build), compiled as the tests compile them.
const TS = ['-r', join(root, 'scripts', 'swc-register.cjs')];
const run = promisify(execFile);

const { values } = parseArgs({ options: { check: { type: 'boolean' }, from: { type: 'string' } } });
const dir = await mkdtemp(join(tmpdir(), 'svc-client-'));
try {
  let documentFile = values.from;
  if (!documentFile) {
    // The document printer (src/cli/openapi.ts) needs no database.
    const printer = join(root, 'src', 'cli', 'openapi.ts');
    if (!existsSync(printer)) {
      throw new Error('src/cli/openapi.ts (which prints the document) is missing: pass --from <document>');
    }
    // An empty config file: the routes every installation has, none of this checkout's collections.
    const config = join(dir, 'svc.config.cjs');
    await writeFile(config, 'module.exports = {};\n');
    documentFile = join(dir, 'openapi.json');
    await run(process.execPath, [...TS, printer, '--out', documentFile], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, SVC_CONFIG: config },
    });
  }
  const generated = join(dir, 'api.ts');
  await run(
    process.execPath,
    [...TS, join(root, 'src', 'cli', 'typegen.ts'), '--file', documentFile, '--out', generated],
    { cwd: root },
  );
  const options = { ...(await prettier.resolveConfig(OUT)), filepath: OUT };
  const types = await prettier.format(await readFile(generated, 'utf8'), options);
  if (values.check) {
    const committed = await readFile(OUT, 'utf8').catch(() => '');
    if (committed !== types) {
      process.stderr.write(
        'src/client/api.ts differs from the OpenAPI document: run `npm run generate:client` and commit it\n',
      );
      process.exitCode = 1;
    }
  } else {
    await writeFile(OUT, types);
    process.stdout.write(`wrote ${OUT}\n`);
  }
} catch (e) {
  process.stderr.write(`${e.stderr || e.message}\n`);
  process.exitCode = 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
