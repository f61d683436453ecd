import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * The docs cover every route the service serves, and the served OpenAPI document, which users read
 * in Swagger UI and generated clients, cites no build documents or issue numbers.
 */
const root = join(__dirname, '..', '..');
const docsText = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs')).map((f) => join(root, 'docs', f)),
]
  .filter((f) => f.endsWith('.md'))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
/** Path parameters compared by position, whatever their names (`{id}`, `{slug}`, `<id>`). */
const normalise = (text: string) => text.replace(/\{[^}/]*\}|<[a-z]+>/g, '{}');
const CITATIONS = [/\bSPEC\b/, /\bCONTRACTS\b/, /\bDESIGN\.md\b/, /\b[Ii]ssues? #?\d+/];

describe('docs and the served OpenAPI document', () => {
  let t: TestApp;
  let doc: { paths: Record<string, unknown> };

  beforeAll(async () => {
    t = await createTestApp({
      config: { collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text', required: true }] }] },
    });
    const res = await t.http.get('/admin/api/openapi.json').expect(200);
    doc = JSON.parse(res.text) as typeof doc;
  });
  afterAll(() => t.close());

  it('every route of the document is named in README.md or docs/', () => {
    const text = normalise(docsText);
    // A collection's own operations (`/collections/posts/...`) behave as the `{slug}` ones.
    const generic = Object.keys(doc.paths).filter(
      (p) => !/^\/admin\/api\/collections\/(?!schema\/)[a-z][a-z0-9-]*\//.test(`${p}/`),
    );
    expect(generic.length).toBeGreaterThan(50);
    const missing = generic.filter((p) => !text.includes(`\`${normalise(p)}\``));
    expect(missing).toEqual([]);
  });

  it('cites no build documents or issue numbers', () => {
    const hits: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') {
        if (CITATIONS.some((p) => p.test(value))) {
          hits.push(value);
        }
      } else if (value && typeof value === 'object') {
        Object.values(value).forEach(walk);
      }
    };
    walk(doc);
    expect(hits).toEqual([]);
  });
});
