import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Every relative link of README.md and docs/ leads to a file that exists and, with `#`, to one of its headings. */
const root = join(__dirname, '..', '..');
const pages = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs')).map((f) => join(root, 'docs', f)),
].filter((f) => f.endsWith('.md'));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      fenced = !fenced;
    }
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (m) {
      out.add(
        m[1]
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replace(/ /g, '-'),
      );
    }
  }
  return out;
}

describe('links in README.md and docs/', () => {
  it('lead to existing files and headings', () => {
    const broken: string[] = [];
    let anchored = 0;
    for (const page of pages) {
      const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) {
          continue;
        }
        const [file, hash] = target.split('#');
        anchored += hash ? 1 : 0;
        const path = file ? join(dirname(page), file) : page;
        if (!existsSync(path)) {
          broken.push(`${relative(root, page)}: ${target} (no such file)`);
        } else if (hash && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(hash)) {
          broken.push(`${relative(root, page)}: ${target} (no such heading)`);
        }
      }
    }
    expect(anchored).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });
});
