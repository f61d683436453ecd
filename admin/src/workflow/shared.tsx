import { api, ApiError, type Entry, unwrap } from '../api';
import { controlOf, type FieldDef, type FormValue, labelOf } from '../form/fields';
import './workflow.css';

/** An entry (or a single's content) as the form was loaded with it, and the tag naming that state. */
export interface Loaded {
  item: Entry;
  /** The `ETag` of that state: sent as `If-Match`, so a save over someone else's is refused. */
  etag: string | null;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * A content route (per collection, so not in the typed document) through the typed client, with
 * the answer's `ETag` and an optional `If-Match`. Never from the browser's HTTP cache: the tag
 * must name what the service holds now.
 */
export async function tagged<T>(
  method: Method,
  path: string,
  init: { query?: object; body?: unknown; ifMatch?: string | null } = {},
): Promise<{ data: T; etag: string | null }> {
  const loose = api as unknown as Record<
    Method,
    (
      p: string,
      o: {
        params?: { query?: object };
        body?: unknown;
        headers?: Record<string, string>;
        cache?: RequestCache;
      },
    ) => Promise<Answer<T>>
  >;
  const answer = await loose[method](`/admin/api${path}`, {
    params: { query: init.query },
    body: init.body,
    headers: init.ifMatch ? { 'If-Match': init.ifMatch } : undefined,
    cache: 'no-store',
  });
  const data = await unwrap(Promise.resolve(answer));
  return { data, etag: answer.response.headers.get('ETag') };
}

/** The API's path of the entry (or single) the editor shows: its versions, schedules and preview hang under it. */
export function entryPath(kind: 'collection' | 'single', slug: string, id?: string): string {
  return kind === 'single' ? `/singles/${slug}` : `/collections/${slug}/entries/${id}`;
}

/** The entry's newest state, drafts included, with its tag. */
export async function loadEntry(path: string, drafts: boolean): Promise<Loaded> {
  const { data, etag } = await tagged<Entry>('GET', path, { query: drafts ? { status: 'all' } : {} });
  return { item: data, etag };
}

/** A field's label by its name (the name itself for a field the form does not know). */
export function labelFor(fields: FieldDef[], name: string): string {
  const field = fields.find((f) => f.name === name);
  return field ? labelOf(field) : name;
}

const LONGEST = 160;

/** The words of a rich-text document (a Lexical state): its text nodes, paragraph by paragraph. */
function wordsOf(node: unknown): string {
  if (!node || typeof node !== 'object') {
    return '';
  }
  const n = node as { text?: unknown; children?: unknown[]; root?: unknown };
  if (n.root) {
    return wordsOf(n.root);
  }
  if (typeof n.text === 'string') {
    return n.text;
  }
  return (n.children ?? []).map(wordsOf).join(n.children?.some((c) => isBlock(c)) ? ' ' : '');
}
const isBlock = (c: unknown) => Boolean(c && typeof c === 'object' && 'children' in c);

/** A stored value as a short text a reader can compare: "(empty)", the words of rich text, ids... */
export function shownValue(field: FieldDef | undefined, value: unknown): string {
  let text: string;
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)) {
    return '(empty)';
  } else if (typeof value === 'boolean') {
    text = value ? 'Yes' : 'No';
  } else if (typeof value === 'string') {
    text =
      field && controlOf(field) === 'datetime' && !Number.isNaN(Date.parse(value))
        ? new Date(value).toLocaleString()
        : value;
  } else if (typeof value === 'number') {
    text = String(value);
  } else if (Array.isArray(value)) {
    text = value.map((v) => shownValue(undefined, v)).join(', ');
  } else if (typeof value === 'object' && 'root' in value) {
    text = wordsOf(value) || '(empty)';
  } else if (typeof value === 'object' && 'id' in value) {
    text = String((value as { id: unknown }).id);
  } else {
    text = JSON.stringify(value);
  }
  return text.length > LONGEST ? `${text.slice(0, LONGEST)}…` : text;
}

/** A form control's value shown the same way as a stored one. */
export function shownFormValue(field: FieldDef, value: FormValue): string {
  const control = controlOf(field);
  if (typeof value === 'string' && value && ['json', 'richtext', 'component'].includes(control)) {
    try {
      return shownValue(field, JSON.parse(value));
    } catch {
      return shownValue(field, value);
    }
  }
  if (control === 'datetime' && typeof value === 'string' && value) {
    return shownValue(field, new Date(value).toISOString());
  }
  return shownValue(field, value);
}

/** The per-field messages of a refusal (by the first segment of their path) and the rest. */
export function splitProblem(
  error: unknown,
  names: string[],
): { byField: Record<string, string>; rest: string } {
  if (!(error instanceof ApiError)) {
    return {
      byField: {},
      rest:
        error instanceof TypeError
          ? 'The service could not be reached. Check your connection and try again.'
          : 'Something went wrong. Try again.',
    };
  }
  const byField: Record<string, string> = {};
  const other: string[] = [];
  for (const issue of error.issues) {
    const name = String(issue.path).split('.')[0];
    if (names.includes(name)) {
      byField[name] = byField[name] ? `${byField[name]}; ${issue.message}` : issue.message;
    } else {
      other.push(issue.message);
    }
  }
  return { byField, rest: [error.message, ...other].join(' ') };
}
