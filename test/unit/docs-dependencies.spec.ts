import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** docs/dependencies.md says why each package is there: a package it does not name fails, and so does a name it keeps after removal. */
const root = join(__dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'dependencies.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
  string,
  Record<string, string>
>;
const packages = ['dependencies', 'optionalDependencies', 'devDependencies'].flatMap((k) =>
  Object.keys(pkg[k] ?? {}),
);

describe('docs/dependencies.md', () => {
  it('names every package of package.json', () => {
    const missing = packages.filter((name) => !page.includes(`\`${name}\``) && !name.startsWith('@types/'));
    expect(missing).toEqual([]);
  });

  it('names no package that package.json does not have', () => {
    const named = [...page.matchAll(/`((?:@[a-z0-9-]+\/)?[a-z0-9][a-z0-9.-]*)`/g)].map((m) => m[1]);
    const tables = page.slice(page.indexOf('## Runtime'));
    const inTables = named.filter((n) => tables.includes(`| \`${n}\``) || tables.includes(`, \`${n}\``));
    expect(inTables.filter((n) => !packages.includes(n))).toEqual([]);
  });
});
