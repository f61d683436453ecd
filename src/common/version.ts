import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package's root and version, from the nearest package.json (works from src/ and from dist/src/). */
function findPackage(): { root: string; version: string } {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc' && pkg.version) {
        return { root: dir, version: pkg.version };
      }
    }
    dir = dirname(dir);
  }
  return { root: join(__dirname, '..', '..'), version: '0.0.0' };
}

const found = findPackage();

export const SERVICE_VERSION = found.version;
/** The directory holding package.json: `dist/admin` (the built admin app) is under it. */
export const PACKAGE_ROOT = found.root;
