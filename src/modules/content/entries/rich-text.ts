/**
 * richText field values: Lexical editor-state JSON (`{ root: { type: 'root', children: [...] } }`,
 * what `editor.getEditorState().toJSON()` produces, in its full or compact form), checked at write
 * time by {@link checkRichText} and rendered to sanitised HTML on reads by {@link renderRichText}.
 *
 * Loading: lexical 0.52 ships ES modules only; this CommonJS module loads them with Node's
 * `require(esm)` (on by default since Node 20.19, the service's minimum). Only the main entry of
 * `@lexical/headless` is used: it creates a plain editor flagged headless and never touches a DOM.
 * happy-dom is only imported by `@lexical/headless/dom` (its `withDOM`, which installs a global
 * `window`/`document` while it runs), which is not used here, so no DOM global ever exists in the
 * process (a unit test checks it).
 *
 * One headless editor, created at module load, parses every document (`parseEditorState` only builds
 * a detached EditorState; the editor's own state is never set, so calls cannot see each other).
 *
 * ## Accepted documents (checkRichText)
 * - A plain JSON object with a `root` object whose `type` is `'root'`; other keys, at any level, are
 *   ignored (kept as stored, never rendered).
 * - Node types and where they may appear (any other type, or a type in another place, is refused):
 *   | parent                    | children                                   |
 *   | ------------------------- | ------------------------------------------ |
 *   | root                      | paragraph, heading, quote, list            |
 *   | paragraph, heading, quote | text, tab, linebreak, link, autolink       |
 *   | link, autolink            | text, tab, linebreak                       |
 *   | list                      | listitem                                   |
 *   | listitem                  | text, tab, linebreak, link, autolink, list |
 *   | text, tab, linebreak      | none                                       |
 *   `children`, when present, must be an array (absent means none, as in the compact form).
 *   `$slots` is refused (its nodes would be stored but never rendered).
 * - Properties that change the output must have their type when present: text `text` a string and
 *   `format` a bitmask (integer 0 to 2^31-1) or a format name ('bold', ...); heading `tag` h1-h6;
 *   list `listType` number, bullet, check (or the legacy ol, ul) and `start` a safe integer; link
 *   `url` a string, `target`, `rel`, `title` strings or null, autolink `isUnlinked` a boolean.
 *   Lexical itself would silently turn
 *   a wrong value into a default (`tag: 'h7'` into h1), which would lose what the client meant.
 * - Link URLs are not refused: the document is stored as the editor wrote it and the renderer alone
 *   decides which links are safe (see below), so its rules can change without invalidating data.
 * - Limits, checked by an iterative walk of the raw JSON before Lexical sees it (a hostile input costs
 *   at most one pass and cannot overflow the stack): at most 1,000,000 characters as JSON (measured
 *   as JSON.stringify would write it, stopping at the limit), no JSON value nested more than 80
 *   levels (a node at the depth limit sits at level 65, leaving room for nested properties), node
 *   nesting at most 32 below the root, at most 50,000 nodes (root included). Every string, key
 *   included, must be free of NUL and unpaired surrogates (PostgreSQL jsonb refuses both).
 *   Values must be JSON data: no functions, symbols, bigints, non-finite numbers, class instances;
 *   a property whose value is `undefined` is skipped, as JSON.stringify does.
 * - Finally Lexical parses the document (`editor.parseEditorState`); an error there refuses it.
 *
 * ## Rendering (renderRichText)
 * A stored document was checked when it was written; rendering re-runs the node checks (cheap, and
 * what bounds Lexical's work) but not the whole-JSON pass, and renders anything they or Lexical
 * refuse, or any other failure, as ''. It never throws.
 *
 * The HTML is written by walking the parsed nodes, never with `@lexical/html` (which needs a DOM
 * and writes classes, styles and arbitrary attributes). The output only ever contains these tags:
 * p, h1-h6, blockquote, ul, ol, li, a, strong, em, u, s, code, sub, sup, br; text escaped
 * (`& < > " '`); and these attributes: `href` on a, `target="_blank"` and
 * `rel="noopener noreferrer"` on a, `start` on ol. No style, class, id, event handler, `value` or
 * anything else.
 * - paragraph `<p>` (an empty one `<p><br></p>`, like Lexical's own export, so blank lines keep
 *   their height); heading `<h1>`-`<h6>`; quote `<blockquote>`; linebreak `<br>`; tab a tab character.
 * - list: number `<ol>` (`start="n"` when its start is a safe integer other than 1), bullet and check
 *   `<ul>` (the checked state is not rendered: no `<input>` in the allow-list); listitem `<li>`.
 *   Lexical stores a nested list as its own list item holding only lists; it is rendered inside the
 *   previous item (`<li>a<ul><li>b</li></ul></li>`), so browsers number an `<ol>` as the editor does.
 * - text: escaped, wrapped in one tag per format, outermost first:
 *   strong (bold), em (italic), u (underline), s (strikethrough), sub, sup, code; so bold+italic is
 *   `<strong><em>x</em></strong>`. highlight, lowercase, uppercase, capitalize are not rendered.
 *   An empty text node renders nothing.
 * - link and autolink: `<a href="...">` when the URL, trimmed of surrounding whitespace, is safe:
 *   scheme http:, https:, mailto: or tel: (any case), or a relative reference (path, `?query`,
 *   `#fragment`). Refused: any other scheme (javascript:, data:, vbscript:, sms:, ...), a colon before
 *   the first `/`, `?` or `#` (it would read as a scheme), ASCII control characters anywhere (browsers
 *   drop tabs and newlines inside a URL, so `java\tscript:` would run), backslashes (browsers read
 *   `\` as `/`), and protocol-relative `//host` URLs: a relative link is meant to stay on this site,
 *   and `//host` leaves it for another host while looking relative (and resolves differently
 *   depending on where the HTML ends up); an off-site link must say `https://`. A refused link
 *   renders its children without `<a>`, and so does an autolink whose `isUnlinked` is true (the user
 *   removed the link; Lexical shows it as plain text). `target="_blank" rel="noopener noreferrer"`
 *   is added only when the stored target is exactly `_blank`; the stored `rel` and `title` are not
 *   rendered.
 * - Not rendered: element `format` (alignment), `indent` and `direction`; text `style`, `detail` and
 *   `mode`; ListItem `value` and `checked`; `$` node state.
 */
import { createHeadlessEditor } from '@lexical/headless';
import { $isAutoLinkNode, $isLinkNode, AutoLinkNode, LinkNode } from '@lexical/link';
import { $isListItemNode, $isListNode, ListItemNode, ListNode } from '@lexical/list';
import { $isHeadingNode, $isQuoteNode, HeadingNode, QuoteNode } from '@lexical/rich-text';
import {
  $getRoot,
  $isElementNode,
  $isLineBreakNode,
  $isParagraphNode,
  $isTabNode,
  $isTextNode,
  type EditorState,
  type ElementNode,
  type LexicalNode,
  type SerializedEditorState,
  type TextFormatType,
  type TextNode,
} from 'lexical';

/** Longest document, as JSON text. */
const RICH_TEXT_MAX_LENGTH = 1_000_000;
/** Deepest node nesting below the root (the root's children are at depth 1). */
const RICH_TEXT_MAX_DEPTH = 32;
/** Most nodes in one document, the root included. */
const RICH_TEXT_MAX_NODES = 50_000;
/** Deepest JSON nesting of any value (a node at RICH_TEXT_MAX_DEPTH sits at 2 * 32 + 1). */
const MAX_JSON_DEPTH = 2 * RICH_TEXT_MAX_DEPTH + 16;

const editor = createHeadlessEditor({
  namespace: 'svc-rich-text',
  nodes: [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode, AutoLinkNode],
  // parseEditorState hands its errors to onError instead of throwing them.
  onError: (error) => {
    throw error;
  },
});

// ---------------------------------------------------------------------------------------------
// Checking

const INLINE = ['text', 'tab', 'linebreak', 'link', 'autolink'];
const LINK_CONTENT = ['text', 'tab', 'linebreak'];
/** Node type to the types its children may have (empty for leaves). A Map: no inherited keys. */
const CHILD_TYPES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['root', new Set(['paragraph', 'heading', 'quote', 'list'])],
  ['paragraph', new Set(INLINE)],
  ['heading', new Set(INLINE)],
  ['quote', new Set(INLINE)],
  ['list', new Set(['listitem'])],
  ['listitem', new Set([...INLINE, 'list'])],
  ['link', new Set(LINK_CONTENT)],
  ['autolink', new Set(LINK_CONTENT)],
  ['text', new Set<string>()],
  ['tab', new Set<string>()],
  ['linebreak', new Set<string>()],
]);

const HEADING_TAGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const LIST_TYPES: ReadonlySet<string> = new Set(['number', 'bullet', 'check', 'ol', 'ul']);
const FORMAT_NAMES: ReadonlySet<string> = new Set<TextFormatType>([
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'highlight',
  'code',
  'subscript',
  'superscript',
  'lowercase',
  'uppercase',
  'capitalize',
]);

// Matching control characters is the point of these three patterns.
/* eslint-disable no-control-regex */
/** NUL or any surrogate half: the quick test before ILL_FORMED. */
const SUSPECT = /[\u0000\ud800-\udfff]/;
/** NUL, or a surrogate half without its other half. */
const ILL_FORMED = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Characters JSON.stringify escapes (lone surrogates never get this far). */
const JSON_ESCAPED = /["\\\u0000-\u001f]/;
/* eslint-enable no-control-regex */

type JsonObject = { readonly [key: string]: unknown };

/** A plain object of any realm (its prototype is null or some realm's Object.prototype). */
function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** `JSON.stringify(s).length`, without building the string. */
function jsonStringLength(s: string): number {
  if (!JSON_ESCAPED.test(s)) {
    return s.length + 2;
  }
  let length = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) {
      length += 1;
    } else if (c < 0x20) {
      length += 5;
    }
  }
  return length;
}

function checkString(s: string, budget: number): string | null {
  if (s.length > budget) {
    return `rich text is longer than ${RICH_TEXT_MAX_LENGTH} characters as JSON`;
  }
  if (SUSPECT.test(s) && ILL_FORMED.test(s)) {
    return 'rich text must not contain NUL characters or unpaired surrogates';
  }
  return null;
}

/**
 * The limits that make everything after cheap: JSON data only, serialized length, JSON depth,
 * well-formed strings. Iterative, stops at the first problem, and stops counting at the length
 * limit before looking inside a too-large array or object.
 */
function checkJsonLimits(value: unknown): string | null {
  const tooLong = `rich text is longer than ${RICH_TEXT_MAX_LENGTH} characters as JSON`;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let length = 0;
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop() as number;
    if (typeof v === 'string') {
      const problem = checkString(v, RICH_TEXT_MAX_LENGTH - length);
      if (problem !== null) {
        return problem;
      }
      length += jsonStringLength(v);
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) {
        return 'rich text must be JSON data (a number is not finite)';
      }
      length += String(v).length;
    } else if (typeof v === 'boolean') {
      length += v ? 4 : 5;
    } else if (v === null) {
      length += 4;
    } else if (depth >= MAX_JSON_DEPTH) {
      return `rich text is nested more than ${MAX_JSON_DEPTH} levels deep`;
    } else if (Array.isArray(v)) {
      length += v.length === 0 ? 2 : v.length + 1; // brackets and commas
      if (length > RICH_TEXT_MAX_LENGTH) {
        return tooLong;
      }
      for (let i = v.length - 1; i >= 0; i--) {
        // JSON.stringify writes undefined in an array as null, which the node checks then refuse.
        values.push(v[i] === undefined ? null : v[i]);
        depths.push(depth + 1);
      }
    } else if (isPlainObject(v)) {
      const keys = Object.keys(v);
      length += 2; // braces
      let first = true;
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        const item = v[key];
        if (item === undefined) {
          continue; // JSON.stringify leaves it out
        }
        const problem = checkString(key, RICH_TEXT_MAX_LENGTH - length);
        if (problem !== null) {
          return problem;
        }
        length += jsonStringLength(key) + (first ? 1 : 2); // the colon, and a comma between members
        first = false;
        if (length > RICH_TEXT_MAX_LENGTH) {
          return tooLong;
        }
        values.push(item);
        depths.push(depth + 1);
      }
    } else {
      return 'rich text must be JSON data';
    }
    if (length > RICH_TEXT_MAX_LENGTH) {
      return tooLong;
    }
  }
  return null;
}

/** A value's own description for a message: short, and quoted when it is a string. */
function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function checkFields(node: JsonObject, type: string, at: string): string | null {
  switch (type) {
    case 'text': {
      if (node.text !== undefined && typeof node.text !== 'string') {
        return `${at}.text must be a string`;
      }
      const format = node.format;
      const validFormat =
        format === undefined ||
        (typeof format === 'number' && Number.isInteger(format) && format >= 0 && format <= 0x7fffffff) ||
        (typeof format === 'string' && FORMAT_NAMES.has(format));
      return validFormat ? null : `${at}.format must be a format bitmask or a format name`;
    }
    case 'heading':
      return node.tag === undefined || (typeof node.tag === 'string' && HEADING_TAGS.has(node.tag))
        ? null
        : `${at}.tag must be one of h1, h2, h3, h4, h5, h6`;
    case 'list':
      if (
        node.listType !== undefined &&
        !(typeof node.listType === 'string' && LIST_TYPES.has(node.listType))
      ) {
        return `${at}.listType must be number, bullet or check`;
      }
      return node.start === undefined || Number.isSafeInteger(node.start)
        ? null
        : `${at}.start must be an integer`;
    case 'link':
    case 'autolink':
      if (node.url !== undefined && typeof node.url !== 'string') {
        return `${at}.url must be a string`;
      }
      for (const key of ['target', 'rel', 'title']) {
        const v = node[key];
        if (v !== undefined && v !== null && typeof v !== 'string') {
          return `${at}.${key} must be a string or null`;
        }
      }
      return node.isUnlinked === undefined || typeof node.isUnlinked === 'boolean'
        ? null
        : `${at}.isUnlinked must be a boolean`;
    default:
      return null;
  }
}

/**
 * The node rules of the module comment, recursively. A node deeper than RICH_TEXT_MAX_DEPTH is refused
 * before its children are looked at, so the recursion is never more than 34 calls deep, and the
 * node count stops the walk at RICH_TEXT_MAX_NODES, whatever the input.
 */
function checkNode(
  node: unknown,
  at: string,
  depth: number,
  parentType: string | null,
  count: { nodes: number },
): string | null {
  if (!isPlainObject(node)) {
    return `${at} must be a node object`;
  }
  const type = node.type;
  if (typeof type !== 'string') {
    return `${at}.type must be a string`;
  }
  const childTypes = CHILD_TYPES.get(type);
  if (childTypes === undefined) {
    return `${at}: unknown node type ${describe(type)}`;
  }
  if (parentType !== null && !(CHILD_TYPES.get(parentType) as ReadonlySet<string>).has(type)) {
    return `${at}: ${type} is not allowed inside ${parentType}`;
  }
  if (depth > RICH_TEXT_MAX_DEPTH) {
    return `rich text nodes are nested more than ${RICH_TEXT_MAX_DEPTH} levels deep`;
  }
  count.nodes += 1;
  if (count.nodes > RICH_TEXT_MAX_NODES) {
    return `rich text has more than ${RICH_TEXT_MAX_NODES} nodes`;
  }
  const fieldProblem = checkFields(node, type, at);
  if (fieldProblem !== null) {
    return fieldProblem;
  }
  if (node.$slots !== undefined) {
    return `${at}.$slots is not supported`;
  }
  const children = node.children;
  if (children === undefined) {
    return null;
  }
  if (!Array.isArray(children)) {
    return `${at}.children must be an array`;
  }
  if (children.length > 0 && childTypes.size === 0) {
    return `${at}: ${type} nodes have no children`;
  }
  for (let i = 0; i < children.length; i++) {
    const problem = checkNode(children[i], `${at}.children.${i}`, depth + 1, type, count);
    if (problem !== null) {
      return problem;
    }
  }
  return null;
}

/**
 * The parsed document, or what is wrong with it. `checkJson` adds the whole-JSON pass (length,
 * JSON depth, well-formed strings, JSON data only), which the write path needs and the read path
 * does not: rendering a stored document re-runs only the node checks, which bound the work Lexical
 * does (at most 50,000 nodes, 32 deep) and keep the output to the shapes described above.
 */
function readDocument(value: unknown, checkJson: boolean): EditorState | string {
  if (!isPlainObject(value)) {
    return 'rich text must be a Lexical document object';
  }
  if (!isPlainObject(value.root)) {
    return 'rich text must have a root object';
  }
  if (value.root.type !== 'root') {
    return 'root.type must be "root"';
  }
  const limits = checkJson ? checkJsonLimits(value) : null;
  if (limits !== null) {
    return limits;
  }
  const problem = checkNode(value.root, 'root', 0, null, { nodes: 0 });
  if (problem !== null) {
    return problem;
  }
  try {
    return editor.parseEditorState(value as unknown as SerializedEditorState);
  } catch {
    return 'rich text is not a document Lexical can read';
  }
}

/** null when `value` is a Lexical document this service accepts, else a short message saying what is wrong. */
export function checkRichText(value: unknown): string | null {
  try {
    const read = readDocument(value, true);
    return typeof read === 'string' ? read : null;
  } catch {
    // Only a value that is not plain data gets here (a getter or a proxy that throws).
    return 'rich text must be JSON data';
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIAL_ALL = /[&<>"']/g;

function escapeHtml(s: string): string {
  return HTML_SPECIAL.test(s) ? s.replace(HTML_SPECIAL_ALL, (c) => HTML_ESCAPES[c]) : s;
}

/** Innermost first: applied in this order, strong ends up outermost. */
const FORMAT_TAGS: ReadonlyArray<readonly [TextFormatType, string]> = [
  ['code', 'code'],
  ['superscript', 'sup'],
  ['subscript', 'sub'],
  ['strikethrough', 's'],
  ['underline', 'u'],
  ['italic', 'em'],
  ['bold', 'strong'],
];

const SAFE_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto', 'tel']);
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** ASCII control characters (browsers drop tab and newlines inside URLs) and backslash. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNSAFE_URL_CHARS = /[\u0000-\u001f\u007f\\]/;

/** The href to write for a stored link URL, or null when the link must not be rendered as one. */
function safeHref(url: string): string | null {
  const href = url.trim();
  if (href === '' || UNSAFE_URL_CHARS.test(href)) {
    return null;
  }
  const scheme = SCHEME.exec(href);
  if (scheme !== null) {
    return SAFE_SCHEMES.has(scheme[1].toLowerCase()) ? href : null;
  }
  if (href.startsWith('//')) {
    return null;
  }
  const colon = href.indexOf(':');
  const delimiter = href.search(/[/?#]/);
  if (colon !== -1 && (delimiter === -1 || colon < delimiter)) {
    return null;
  }
  return href;
}

function renderText(node: TextNode): string {
  const text = node.getTextContent();
  if (text === '') {
    return '';
  }
  let html = escapeHtml(text);
  for (const [format, tag] of FORMAT_TAGS) {
    if (node.hasFormat(format)) {
      html = `<${tag}>${html}</${tag}>`;
    }
  }
  return html;
}

function renderChildren(node: ElementNode): string {
  let html = '';
  for (const child of node.getChildren()) {
    html += renderNode(child);
  }
  return html;
}

/** Lexical's nested list: a list item whose only children are lists. */
function isListWrapper(item: ElementNode): boolean {
  const children = item.getChildren();
  return children.length > 0 && children.every($isListNode);
}

function renderList(node: ListNode): string {
  let open = '<ul>';
  let close = '</ul>';
  if (node.getListType() === 'number') {
    const start = node.getStart();
    open = Number.isSafeInteger(start) && start !== 1 ? `<ol start="${start}">` : '<ol>';
    close = '</ol>';
  }
  let html = open;
  let itemOpen = false;
  for (const child of node.getChildren()) {
    if (itemOpen && $isListItemNode(child) && isListWrapper(child)) {
      html += renderChildren(child);
      continue;
    }
    if (itemOpen) {
      html += '</li>';
    }
    html += `<li>${$isListItemNode(child) ? renderChildren(child) : renderNode(child)}`;
    itemOpen = true;
  }
  return `${html}${itemOpen ? '</li>' : ''}${close}`;
}

function renderLink(node: LinkNode): string {
  const inner = renderChildren(node);
  // An autolink the user unlinked is plain text (Lexical shows it as a <span>).
  const href = $isAutoLinkNode(node) && node.getIsUnlinked() ? null : safeHref(node.getURL());
  if (href === null) {
    return inner;
  }
  const blank = node.getTarget() === '_blank' ? ' target="_blank" rel="noopener noreferrer"' : '';
  return `<a href="${escapeHtml(href)}"${blank}>${inner}</a>`;
}

function renderNode(node: LexicalNode): string {
  if ($isElementNode(node)) {
    if ($isParagraphNode(node)) {
      return node.getChildrenSize() === 0 ? '<p><br></p>' : `<p>${renderChildren(node)}</p>`;
    }
    if ($isHeadingNode(node)) {
      const tag = HEADING_TAGS.has(node.getTag()) ? node.getTag() : 'h1';
      return `<${tag}>${renderChildren(node)}</${tag}>`;
    }
    if ($isQuoteNode(node)) {
      return `<blockquote>${renderChildren(node)}</blockquote>`;
    }
    if ($isListNode(node)) {
      return renderList(node);
    }
    if ($isListItemNode(node)) {
      return `<li>${renderChildren(node)}</li>`;
    }
    if ($isLinkNode(node)) {
      return renderLink(node);
    }
    return renderChildren(node);
  }
  if ($isLineBreakNode(node)) {
    return '<br>';
  }
  if ($isTabNode(node)) {
    return '\t';
  }
  if ($isTextNode(node)) {
    return renderText(node);
  }
  return '';
}

/** The HTML of a stored document (already checked at write time, but must never throw: a document it cannot read renders as ''). */
export function renderRichText(value: unknown): string {
  try {
    const state = readDocument(value, false);
    return typeof state === 'string' ? '' : state.read(() => renderChildren($getRoot()));
  } catch {
    return '';
  }
}
