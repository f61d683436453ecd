import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package version, read once from the nearest package.json (works from src/ and from dist/src/). */
function readVersion(): string {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc' && pkg.version) {
        return pkg.version;
      }
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}

export const SERVICE_VERSION = readVersion();
