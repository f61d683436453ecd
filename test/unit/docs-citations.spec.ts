import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * What a user reads never cites the documents the service was built from or issue numbers: the
 * README, docs/, and every string a source file holds (error messages, the pages' HTML and script,
 * OpenAPI text, log lines). Comments are not user text and are not checked.
 */
const root = join(__dirname, '..', '..');
const CITATIONS = [
  /\bSPEC\b/,
  /\bCONTRACTS\b/,
  /\bDESIGN\.md\b/,
  /\b[Ii]ssues? #?\d+/,
  /(^|[\s(])#\d{1,4}\b(?!-)/,
];

function files(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), ext) : e.name.endsWith(ext) ? [join(dir, e.name)] : [],
  );
}

function cites(text: string): boolean {
  return CITATIONS.some((p) => p.test(text));
}

/** `file:line: text` for each line of a Markdown file that cites. */
function markdownHits(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (cites(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : []));
}

/** `file:line: text` for each string-like literal of a TypeScript file that cites. */
export function literalHits(file: string, text = readFileSync(file, 'utf8')): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const hits: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      // A long literal (the pages' script) is reported by the line that cites.
      node.text.split('\n').forEach((text, i) => {
        if (cites(text)) {
          hits.push(`${relative(root, file)}:${first + i}: ${text.trim().slice(0, 160)}`);
        }
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return hits;
}

describe('no citations of build documents or issue numbers in user-facing text', () => {
  it('finds them in string literals but not in comments (the check itself)', () => {
    const sample = [
      '// SPEC 7 says so, issue 16',
      "const a = 'see CONTRACTS 3.1';",
      'const b = `done in issue #12: ${a}`;',
      "const c = 'a specific message';",
      "const d = 'fixed in Issue 4';",
    ].join('\n');
    expect(literalHits(join(root, 'sample.ts'), sample)).toEqual([
      'sample.ts:2: see CONTRACTS 3.1',
      'sample.ts:3: done in issue #12:',
      'sample.ts:5: fixed in Issue 4',
    ]);
  });

  it('README.md, docs/ and bench/README.md cite none', () => {
    const docs = [
      join(root, 'README.md'),
      join(root, 'bench', 'README.md'),
      ...files(join(root, 'docs'), '.md'),
    ];
    expect(docs.flatMap(markdownHits)).toEqual([]);
  });

  it('strings in src/ (messages, pages, OpenAPI text) cite none', () => {
    expect(files(join(root, 'src'), '.ts').flatMap((f) => literalHits(f))).toEqual([]);
  });
});
