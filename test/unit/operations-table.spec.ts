import { OPERATIONS, operationOf, TAG_DESCRIPTIONS } from '../../src/modules/openapi/operations';

/** The words an operation id may start with: what the operation does. */
const VERBS = [
  'accept',
  'add',
  'apply',
  'bulk',
  'cancel',
  'change',
  'complete',
  'confirm',
  'count',
  'create',
  'delete',
  'disable',
  'download',
  'duplicate',
  'end',
  'export',
  'finish',
  'get',
  'list',
  'login',
  'logout',
  'preview',
  'reauthenticate',
  'refresh',
  'regenerate',
  'register',
  'remove',
  'reorder',
  'replace',
  'request',
  'resend',
  'reset',
  'resolve',
  'restore',
  'revoke',
  'rotate',
  'schedule',
  'send',
  'set',
  'sign',
  'start',
  'submit',
  'update',
  'verify',
];

/** The generic content operations; per-collection ids (`listPostsEntries`) are made elsewhere. */
const GENERIC_ENTRY_IDS = [
  'listEntries',
  'countEntries',
  'createEntry',
  'getEntry',
  'updateEntry',
  'deleteEntry',
  'duplicateEntry',
  'bulkDeleteEntries',
  'bulkUpdateEntries',
];

/** What a reader cannot look up: the specification's section names and issue numbers. */
const CITATION = /\bSPEC\b|\bCONTRACTS\b|\bissue\s*#?\s*\d+|#\d+\b/i;

const entries = Object.entries(OPERATIONS);

describe('the operations table', () => {
  it('keys every entry `<Class>.<method>`', () => {
    const bad = Object.keys(OPERATIONS).filter((k) => !/^[A-Z][A-Za-z0-9_]*\.[a-z][A-Za-z0-9]*$/.test(k));
    expect(bad).toEqual([]);
  });

  it('gives unique operation ids', () => {
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const [key, { operationId }] of entries) {
      const first = seen.get(operationId);
      if (first) {
        repeated.push(`${operationId}: ${first} and ${key}`);
      }
      seen.set(operationId, key);
    }
    expect(repeated).toEqual([]);
  });

  it('gives verb-like lowerCamelCase ids', () => {
    const verb = new RegExp(`^(${VERBS.join('|')})(?=[A-Z]|$)`);
    const bad = entries
      .filter(([, { operationId }]) => !/^[a-z]+[A-Za-z0-9]*$/.test(operationId) || !verb.test(operationId))
      .map(([key, { operationId }]) => `${key}: ${operationId}`);
    expect(bad).toEqual([]);
  });

  it('leaves ids ending in Entry or Entries to the generic content routes', () => {
    const bad = entries
      .map(([, { operationId }]) => operationId)
      .filter((id) => /Entr(y|ies)$/.test(id) && !GENERIC_ENTRY_IDS.includes(id));
    expect(bad).toEqual([]);
  });

  it('has summaries in words: sentence case, short, never a path', () => {
    const bad = entries
      .filter(
        ([, { summary }]) =>
          !/^[A-Z][^/{}]*[^.\s]$/.test(summary) || summary.length > 60 || summary.split(' ').length < 2,
      )
      .map(([key, { summary }]) => `${key}: ${summary}`);
    expect(bad).toEqual([]);
  });

  it('has descriptions of one to four sentences', () => {
    const bad = entries
      .filter(([, { description }]) => {
        // Sentences end with a full stop (code spans and abbreviations like `e.g.` aside).
        const sentences = description
          .replace(/`[^`]*`/g, 'code')
          .split(/[.!?](?:\s|$)/)
          .filter((s) => s.trim());
        return !/^[A-Z`]/.test(description) || !/[.)]$/.test(description) || sentences.length > 4;
      })
      .map(([key]) => key);
    expect(bad).toEqual([]);
  });

  it('never cites the specification or an issue', () => {
    const texts = [
      ...entries.flatMap(([key, o]) => [`${key} ${o.summary}`, `${key} ${o.description}`]),
      ...Object.entries(TAG_DESCRIPTIONS).map(([tag, text]) => `${tag} ${text}`),
    ];
    expect(texts.filter((t) => CITATION.test(t))).toEqual([]);
  });

  it('describes every tag in a sentence or two', () => {
    const bad = Object.entries(TAG_DESCRIPTIONS)
      .filter(([tag, text]) => !/^[a-z][a-z-]*$/.test(tag) || !/^[A-Z].*\.$/.test(text))
      .map(([tag]) => tag);
    expect(bad).toEqual([]);
    expect(Object.keys(TAG_DESCRIPTIONS)).toEqual(expect.arrayContaining(['auth', 'users', 'health']));
  });

  it('finds the entry of an inherited handler through the class it extends', () => {
    class Base {
      start() {}
    }
    Object.defineProperty(Base, 'name', { value: 'OidcRoutes' });
    class Instance extends Base {}
    Object.defineProperty(Instance, 'name', { value: 'OidcRoutes_corp' });
    expect(operationOf(Instance, 'start')).toBe(OPERATIONS['OidcRoutes.start']);
    expect(operationOf(Instance, 'unknown')).toBeUndefined();
    expect(operationOf(undefined, 'start')).toBeUndefined();
  });
});
