import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { unescape as lenientUnescape } from 'node:querystring';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ERROR_STATUS, isErrorCode } from '../../src/common/errors/error-codes';
import { LimitedExpressAdapter } from '../../src/http-server';
import { EmailProvidersService } from '../../src/modules/email/email-providers.service';
import {
  bearerFor,
  cookieValue,
  createUser,
  CreatedUser,
  PASSWORD,
  sessionWithoutPassword,
  setCookies,
  signIn,
  userWithPermissions,
} from '../utils/auth';
import { doc, paragraph, text } from '../utils/lexical';
import { LogCapture } from '../utils/log-capture';
import { RawResponse, sendRaw } from '../utils/raw-http';
import { serviceRoutes } from '../utils/routes';
import { startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';
import { mulberry32 } from '../utils/prng';

/**
 * Seeded hostile requests over every route of the service (SPEC 7, CONTRACTS 8).
 *
 * The routes come from the app itself (the Nest metadata of every `SVC_ROUTE` controller, as
 * route-access does), so a new route is covered without editing this file. Each case picks a
 * route, a caller (anonymous, a super-admin Bearer token, a low-privilege Bearer token, a
 * full-access API key, a cookie session with its CSRF token), fills the path parameters with real
 * ids or hostile segments, and mixes hostile query strings, headers and bodies (deep nesting, huge
 * arrays, NUL, lone surrogates, 100 KB strings, wrong types, prototype keys, malformed JSON, wrong
 * media types, bodies whose Content-Encoding lies) with well-formed bodies that have one field made
 * hostile, so that many requests reach deep code. Every answer must be:
 * - below 500;
 * - on 4xx, `application/problem+json` with `{ error: { code, message, requestId, data? } }`, the
 *   code one of SPEC 7 with its status, `requestId` equal to the `X-Request-Id` header, and the
 *   whole problem at most 16 KiB (a problem names what is wrong, it does not mirror a hostile body);
 * - free of stack traces and SQL text;
 * and every answer carries a sane `X-Request-Id`, echoing the one sent when that one was sane.
 * Afterwards nothing is damaged: sentinels no request names (a code-defined collection, a single,
 * a user, a role, a template), resources only anonymous and low-privilege cases name (they may not
 * change them), and pool resources no successful write named all read back unchanged.
 *
 * Requests go over a bare socket (test/utils/raw-http.ts), so targets and headers are sent byte for
 * byte. Each case draws from its own PRNG stream (mulberry32 seeded with SEED and the case number):
 * a failure prints its case number, and `HOSTILE_CASES=12,345` replays exactly those cases
 * (`HOSTILE_SEED` explores another seed, `HOSTILE_REPORT=/tmp/x.json` writes every failure with
 * statuses per route and per input kind). Cases run six at a time, so a failure that depends on
 * what an earlier case changed (an entry deleted, a password set) may need its neighbours to replay.
 * A 5xx failure prints the server's log line for its request id.
 */

const SEED = Number(process.env.HOSTILE_SEED ?? 0x0bad_5eed) >>> 0;
const CASES = 6000;
/** Cases every route gets at the least (the coverage check below asks for 10). */
const MIN_PER_ROUTE = 12;
const CONCURRENCY = 6;
const ONLY = process.env.HOSTILE_CASES
  ? process.env.HOSTILE_CASES.split(',').map((s) => Number(s.trim()))
  : undefined;
/** Node refuses a request whose line and headers exceed 16 KiB before the app sees it (tested apart). */
const MAX_HEAD = 15_000;
const API = '/admin/api';

interface Gen {
  r: () => number;
  int(n: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
}

function gen(seed: number): Gen {
  const r = mulberry32(seed);
  return {
    r,
    int: (n) => Math.floor(r() * n),
    pick: (list) => list[Math.floor(r() * list.length)],
    chance: (p) => r() < p,
  };
}

/** The PRNG of case `n`: independent of the order in which cases run. */
const caseGen = (n: number) => gen((SEED ^ Math.imul(n + 1, 0x9e3779b1)) >>> 0);

const uuid = (g: Gen) => {
  const h = () => g.int(16).toString(16);
  const s = Array.from({ length: 32 }, h).join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-8${s.slice(17, 20)}-${s.slice(20)}`;
};
const base64ish = (g: Gen, n: number) =>
  Array.from({ length: n }, () =>
    g.pick([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']),
  ).join('');

// ---------------------------------------------------------------------------------------------
// Routes, callers, pools

interface Route {
  method: string;
  path: string;
  weight: number;
}

/** Answers held to a floor of 500-600 ms (SPEC 5.2, README): sent less often. */
const FLOORED = /\/auth\/(login|register|forgot-password|verify-email\/resend)$/;

function discoverRoutes(t: TestApp): Route[] {
  return serviceRoutes(t.app).map(({ method, path }) => ({
    method,
    path,
    weight: FLOORED.test(path) ? 0.35 : 1,
  }));
}

type CallerName = 'anonymous' | 'superAdmin' | 'lowPrivilege' | 'apiKey' | 'cookieSession';
const CALLERS: Array<[CallerName, number]> = [
  ['anonymous', 0.2],
  ['superAdmin', 0.25],
  ['lowPrivilege', 0.15],
  ['apiKey', 0.2],
  ['cookieSession', 0.2],
];

interface Pool {
  main: string[];
  victims: string[];
}

/** Everything the generator may name. Callers' own accounts, roles and keys are never in here. */
interface Pools {
  kinds: Record<string, Pool>;
  /** Entry ids by collection slug. */
  entries: Record<string, Pool>;
  /** Addresses of pool users (login, forgot-password and the like). */
  emails: string[];
  /** Field definitions of the definitions the generator may name (schema bodies). */
  fields: Record<string, Array<Record<string, unknown>>>;
  secrets: { superToken: string; lowToken: string; apiKey: string };
  /** False for the pools of anonymous and low-privilege cases (see `unprivileged`). */
  privileged: boolean;
  /**
   * What anonymous and low-privilege cases name instead: resources no privileged case ever names
   * (their accounts, roles, ... and the entries of `guarded`), so none of them may change at all.
   */
  unprivileged?: Pools;
}

// ---------------------------------------------------------------------------------------------
// Hostile vocabularies

const DEPTHS = [10, 60, 64, 65, 100, 500, 1000, 2000, 5000];

const deepArray = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`;
const deepObject = (d: number) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`;
const deepMixed = (d: number) => `${'{"a":['.repeat(d)}${']}'.repeat(d)}`;
const deepOr = (d: number) => `${'{"or":['.repeat(d)}{}${']}'.repeat(d)}`;

/** Strings that must not trip the leak patterns below when a read echoes them back. */
const HOSTILE_STRINGS = [
  'a\u0000b',
  '\u0000',
  'x\ud800y',
  '\udc00',
  '\udc00\ud800',
  '\u202eevil\u202c.txt',
  'a\r\nSet-Cookie: x=1\r\n\r\nb',
  '\r\n',
  '\ufeff\u200b',
  '日本語🎉',
  'Ｅｘａｍｐｌｅ',
  'Zoe\u0308',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '{{#each this}}{{/each}}',
  '{{{constructor.constructor "return process"}}}',
  '${7*7}',
  '#{7*7}',
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  '1 union select password_hash from users --',
  '../../../etc/passwd',
  '%00',
  '%E0%A4%A',
  'null',
  'undefined',
  '[object Object]',
  '',
  ' ',
  '   padded   ',
  '2024-02-30',
  '0000-01-01',
  '9999-12-31T23:59:59Z',
  '2024-01-01T25:61:61Z',
  'Infinity',
  'NaN',
  'a@b',
  '"quoted"@example.com',
  'a@例え.jp',
  `x@${'a'.repeat(300)}.com`,
  '00000000-0000-0000-0000-000000000000',
  '__proto__',
  'constructor',
];

const HOSTILE_NUMBERS = [
  '0',
  '-0',
  '-1',
  '1.5',
  '1e308',
  '1e999',
  '-1e999',
  '123456789012345678901234567890',
  '5e-324',
  '1E-400',
  '2147483648',
  '-9007199254740993',
];

/** Raw bytes that are not UTF-8 (or not JSON) spliced into a JSON string or body. */
const RAW_BYTES: Array<[string, Buffer]> = [
  ['bytes-ff', Buffer.from([0xff, 0xfe, 0x41])],
  ['bytes-cesu-surrogate', Buffer.from([0xed, 0xa0, 0x80])],
  ['bytes-overlong-slash', Buffer.from([0xc0, 0xaf])],
  ['bytes-truncated-utf8', Buffer.from([0xe6, 0x97])],
  ['bytes-raw-nul', Buffer.from([0x61, 0x00, 0x62])],
  ['bytes-raw-controls', Buffer.from([0x01, 0x1b, 0x7f])],
];

interface Hostile {
  /** JSON text of the value; or raw bytes spliced inside a JSON string's quotes. */
  json?: string;
  rawInString?: Buffer;
  tag: string;
}

function hostileValue(g: Gen, P: Pools): Hostile {
  const anyId = () => g.pick([...P.kinds.user.main, ...P.entries.articles.main, ...P.kinds.role.main]);
  switch (g.int(17)) {
    case 0:
    case 1:
      return { json: JSON.stringify(g.pick(HOSTILE_STRINGS)), tag: 'string' };
    case 2:
      return {
        json: JSON.stringify(g.pick(['x', '日', 'é', 'a\u0000'])!.repeat(g.pick([100_000, 35_000, 1001]))),
        tag: 'long-string',
      };
    case 3:
      return { json: g.pick(HOSTILE_NUMBERS), tag: 'number' };
    case 4:
      return {
        json: g.pick([
          'true',
          'false',
          'null',
          '[]',
          '{}',
          '[1,2,3]',
          '{"a":1}',
          '[null]',
          '[[]]',
          '{"":""}',
        ]),
        tag: 'type',
      };
    case 5: {
      const d = g.pick(DEPTHS);
      return { json: g.pick([deepArray, deepObject, deepMixed])(d), tag: `deep-${d}` };
    }
    case 6: {
      const n = g.pick([1000, 10_000, 100_000]);
      return {
        json: g.chance(0.5)
          ? `[${new Array(n).fill('0').join(',')}]`
          : JSON.stringify(Array.from({ length: n }, (_, i) => `s${i}`)),
        tag: `array-${n}`,
      };
    }
    case 7:
      return {
        json: JSON.stringify(
          Object.fromEntries(Array.from({ length: g.pick([1000, 5000]) }, (_, i) => [`k${i}`, i])),
        ),
        tag: 'wide-object',
      };
    case 8:
    case 16:
      return { json: g.pick(PROTO_VALUES), tag: 'proto' };
    case 9:
      return { json: JSON.stringify(g.chance(0.5) ? anyId() : anyId().toUpperCase()), tag: 'real-id' };
    case 10:
      return { json: JSON.stringify(g.chance(0.5) ? uuid(g) : `${anyId()}\u0000`), tag: 'uuid' };
    case 11: {
      const [tag, bytes] = g.pick(RAW_BYTES);
      return { rawInString: bytes, tag };
    }
    case 12:
      return { json: JSON.stringify(g.pick(P.emails).toUpperCase()), tag: 'email-upper' };
    case 13:
      return {
        json: JSON.stringify(Array.from({ length: g.pick([2, 101, 600]) }, () => anyId())),
        tag: 'id-list',
      };
    case 14:
      return {
        json: JSON.stringify({ [g.pick(['$gt', '$ne', '$where', 'equals'])]: '' }),
        tag: 'operator-object',
      };
    default:
      return {
        json: JSON.stringify(g.pick(['\u0000', '\ud800', '\u202e', '\r\n']).repeat(g.pick([1, 50, 5000]))),
        tag: 'control',
      };
  }
}

/** encodeURIComponent, except that a lone surrogate becomes its (invalid) 3-byte UTF-8 form. */
function pctEncode(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out +=
      cp >= 0xd800 && cp <= 0xdfff
        ? `%ED%${(0x80 | ((cp >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (cp & 0x3f)).toString(16).toUpperCase()}`
        : encodeURIComponent(ch);
  }
  return out;
}

/** Values whose keys name Object.prototype's members (`__proto__` as an own key, as JSON.parse makes it). */
const PROTO_VALUES = [
  '{"__proto__":{"polluted":true,"isSuperAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"constructor":1}',
  '[{"constructor":"x"}]',
  '[{"__proto__":{"x":1}}]',
  '{"toString":1,"valueOf":"x","hasOwnProperty":null}',
];

const HOSTILE_SEGMENTS = [
  'posts%00',
  '%00',
  '..%2f',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e',
  '..',
  '.',
  '%2F',
  'a%2Fb',
  '%E0%A4%A',
  '%',
  '%ZZ',
  '%C0%AF',
  '%ED%A0%80',
  '%F0%9F%8E%89',
  '%E2%80%AE',
  '%0D%0A',
  '%20',
  '+',
  'null',
  'undefined',
  'NaN',
  '0',
  '-1',
  '1e309',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'a'.repeat(300),
  encodeURIComponent('日本語'),
  encodeURIComponent("' OR 1=1 --"),
  '%27%3B%20DROP%20TABLE%20users%3B--',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  '{id}',
  ':id',
  '*',
  'count',
  'bulk-delete',
  'schema',
  'layout',
  'reorder',
  'ARTICLES',
  'articles%00',
  'Articles',
  '',
  ';',
  'a;b=c',
  '~',
  '%5C',
  '\\',
  'vault%2F..%2Fusers',
];

function pathSegment(g: Gen, real: () => string | undefined): { value: string; tag: string } {
  const roll = g.r();
  const id = real();
  if (roll < 0.2) {
    return { value: uuid(g), tag: 'param-random-uuid' };
  }
  if (roll < 0.3 && id) {
    return {
      value: g.pick([
        `${id}%00`,
        id.toUpperCase(),
        `${id}%2F..`,
        `${id}.json`,
        `${id}%20`,
        `%20${id}`,
        `${id};x`,
      ]),
      tag: 'param-real-bent',
    };
  }
  if (roll < 0.35) {
    return { value: 'x'.repeat(g.pick([1000, 5000])), tag: 'param-long' };
  }
  return { value: g.pick(HOSTILE_SEGMENTS), tag: 'param-hostile' };
}

const BENIGN_QUERIES = [
  'limit=5',
  'page=2&limit=2',
  'sort=-createdAt',
  'sort=title',
  'status=all',
  'status=draft',
  'depth=1',
  'depth=2',
  'select=title',
  'richTextFormat=html',
  'search=a',
  'where[title][like]=Art',
  'where%5Btitle%5D%5Bequals%5D=Article',
];

function hostileQueryFragment(g: Gen, P: Pools): string {
  switch (g.int(14)) {
    case 0:
      return `where${'[a]'.repeat(g.pick([10, 100, 1000, 3000]))}=1`;
    case 1:
      return `where${'[and][0]'.repeat(g.pick([5, 50, 500, 1400]))}[title][equals]=x`;
    case 2:
      return g.pick([
        'where=%00',
        'where[title][equals]=%00',
        'where[title][equals]=a%00b',
        'where[title][like]=%ED%A0%80',
        `where=${encodeURIComponent(g.pick([deepOr, deepArray, deepObject])(g.pick([100, 400])))}`,
        'where={',
        'where=%7B%22title%22%3A',
        'where[__proto__][polluted]=1',
        'where[constructor][prototype][x]=1',
        `where[id][in]=${encodeURIComponent([...P.entries.articles.main, 'x', '%00'].join(','))}`,
        'where[or][0][views][greater_than]=1e309',
      ]);
    case 3:
      return g.pick([
        'limit=-1',
        'limit=0',
        'limit=1e309',
        'limit=999999999999999999999',
        'limit=abc',
        'limit[]=1',
        'limit[$gt]=1',
        'page=1e309',
        'page=-1',
        'page=0',
        'page=NaN',
        'page=1.5',
        'page=%00',
        'page=9007199254740993',
        'depth=-1',
        'depth=100',
        'depth=1e309',
      ]);
    case 4:
      return g.pick([
        'sort=__proto__',
        'sort=-__proto__',
        'sort=constructor',
        `sort=${'a,'.repeat(2000)}`,
        'sort[]=x',
        'sort=%E0%A4%A',
        'sort=title;drop',
        'select=__proto__',
        `select=${encodeURIComponent('{"__proto__":true}')}`,
      ]);
    case 5:
      return g.pick([
        'limit=1&limit=2',
        'page=1&page=2&page=3',
        'sort=title&sort=-title',
        'status=draft&status=all',
        'where[title][equals]=a&where[title][equals]=b',
      ]);
    case 6:
      return g.pick([
        '%E0%A4%A=1',
        'a=%E0%A4%A',
        'x=%',
        '%=%',
        'q=%ZZ',
        '&&&',
        '=',
        '==',
        ';',
        '%00=%00',
        'a[=1',
      ]);
    case 7:
      return g.pick([
        '__proto__[isSuperAdmin]=true',
        'constructor[prototype][x]=1',
        '__proto__=1',
        'toString=1',
        'hasOwnProperty=1',
      ]);
    case 8:
      return `q=${'x'.repeat(g.pick([1000, 8000]))}`;
    case 9:
      return g.pick([
        `search=${encodeURIComponent('日本語🎉\u202e')}`,
        'search=%ED%A0%80',
        'search=%F0%9F',
        'search=%C0%AF',
        `search=${encodeURIComponent("'; DROP TABLE users; --")}`,
      ]);
    case 10:
      return g.pick([
        'status=%00',
        'status[]=a',
        'status=ALL',
        'richTextFormat[]=x',
        'richTextFormat=xml',
        'token=%00',
        'email=%00',
        'includeInactive=yes',
        'confirmDestructive=true',
        'type=%00',
      ]);
    case 11:
      return g.pick(BENIGN_QUERIES);
    case 12:
      return `where[title][in]=${Array.from({ length: g.pick([100, 1000]) }, (_, i) => `t${i}`).join(',')}`;
    default:
      return `${pctEncode(g.pick(HOSTILE_STRINGS))}=${pctEncode(g.pick(HOSTILE_STRINGS))}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Valid bodies (close to what each route accepts)

const STRONG = 'Strong-Pass-12';

function entryBody(slug: string, g: Gen, P: Pools, n: number, partial: boolean): Record<string, unknown> {
  let body: Record<string, unknown>;
  const authors = P.entries.authors?.main ?? [];
  switch (slug) {
    case 'authors':
      body = { name: `Author ${n}`, email: `author${n}@example.com` };
      break;
    case 'articles':
      body = {
        title: `Article ${n}`,
        views: g.int(1000),
        kind: g.pick(['news', 'blog']),
        meta: { n, tags: ['a', 'b'], nested: { ok: true } },
        body: doc(paragraph(text(`Body ${n}`, g.int(2)))),
        author: g.pick(authors),
        coauthors: [g.pick(authors), g.pick(authors)].filter((v, i, a) => a.indexOf(v) === i),
        status: g.pick(['draft', 'published']),
      };
      break;
    case 'pages':
      body = {
        title: `Page ${n}`,
        seo: { metaTitle: `Meta ${n}`, metaDescription: 'About' },
        blocks: [{ metaTitle: 'Block' }, { metaTitle: 'Block 2', metaDescription: 'x' }],
        data: { n, list: [1, 2, 3] },
      };
      break;
    case 'guarded':
      body = { title: `Guarded ${n}`, n: g.int(10), data: { n }, status: g.pick(['draft', 'published']) };
      break;
    default:
      body = { title: `Entry ${n}` };
  }
  if (partial) {
    const keys = Object.keys(body);
    const keep = new Set(Array.from({ length: 1 + g.int(keys.length) }, () => g.pick(keys)));
    body = Object.fromEntries(Object.entries(body).filter(([k]) => keep.has(k)));
  }
  return body;
}

function singleBody(slug: string, g: Gen, n: number): Record<string, unknown> {
  if (slug === 'site') {
    return { siteName: `Site ${n}`, count: g.int(50), theme: g.pick(['light', 'dark']), extra: { n } };
  }
  return { text: `Text ${n}` };
}

function validBody(
  route: Route,
  g: Gen,
  P: Pools,
  n: number,
  slug: string | undefined,
): Record<string, unknown> {
  const role = () => g.pick(P.kinds.role.main);
  const permission = () => g.pick(P.kinds.permission.main);
  const fieldsOf = (s: string | undefined) => [
    ...(P.fields[s ?? ''] ?? [{ name: 'title', type: 'text' }]),
    ...(g.chance(0.5) ? [{ name: `extra${n}`, type: g.pick(['text', 'number', 'json', 'checkbox']) }] : []),
  ];
  const newFields = () => [
    { name: 'title', type: 'text', required: g.chance(0.3) },
    { name: 'n', type: 'number', min: 0 },
    { name: 'kind', type: 'select', options: ['a', 'b'] },
    ...(g.chance(0.3) ? [{ name: 'seo', type: 'component', fieldGroup: 'seo' }] : []),
  ];
  const key = `${route.method} ${route.path.replace(/^\/admin\/api/, '')}`;
  switch (key) {
    case 'POST /auth/login':
      return { email: g.pick(P.emails), password: g.chance(0.5) ? PASSWORD : 'Wrong-Pass-1' };
    case 'POST /auth/setup':
      return { email: `setup${n}@example.com`, name: 'Setup', password: STRONG };
    case 'POST /auth/register':
      return {
        email: g.chance(0.5) ? `reg${n}@example.com` : g.pick(P.emails),
        password: STRONG,
        name: 'Reg',
      };
    case 'POST /auth/verify-email':
      return { token: base64ish(g, 43) };
    case 'POST /auth/verify-email/resend':
    case 'POST /auth/forgot-password':
      return { email: g.pick(P.emails) };
    case 'POST /auth/reset-password':
      return { token: base64ish(g, 43), password: STRONG };
    case 'POST /auth/accept-invite':
      return { token: base64ish(g, 43), password: STRONG, name: 'Invited' };
    case 'POST /auth/set-initial-password':
      return { pendingToken: base64ish(g, 43), newPassword: STRONG };
    case 'PATCH /auth/change-password':
      return { currentPassword: PASSWORD, newPassword: `${STRONG}-${n}` };
    case 'PATCH /me':
      return { name: `Me ${n}`, image: g.pick(['https://example.com/a.png', null]) };
    case 'POST /users':
      return {
        email: `new${n}@example.com`,
        name: `New ${n}`,
        ...(g.chance(0.3) ? { password: STRONG } : {}),
        roleIds: [role()],
        isActive: true,
        emailVerified: g.chance(0.5),
        sendInvite: g.chance(0.2),
      };
    case 'PATCH /users/:id':
      return { name: `Renamed ${n}`, isActive: g.chance(0.8), image: null };
    case 'PATCH /users/:id/password':
      return { password: STRONG, requirePasswordChange: g.chance(0.5) };
    case 'POST /users/:id/roles':
      return { roleId: role() };
    case 'POST /api-keys':
      return {
        name: `Key ${n}`,
        description: 'made by the hostile-input test',
        type: g.pick(['read-only', 'full-access', 'role-based']),
        roleId: role(),
        expiresAt: g.pick([null, '2099-01-01T00:00:00.000Z']),
      };
    case 'PATCH /api-keys/:id':
      return { name: `Key renamed ${n}`, description: null };
    case 'POST /roles':
      return {
        name: `Role ${n}`,
        slug: `role-${n}`,
        level: g.int(10),
        description: 'd',
        permissionIds: [permission()],
      };
    case 'PATCH /roles/:id':
      return { name: `Role renamed ${n}`, description: 'x', level: g.int(10) };
    case 'POST /roles/:id/permissions':
      return g.chance(0.5) ? { permissionId: permission() } : { permissionIds: [permission(), permission()] };
    case 'PATCH /roles/:id/permissions':
      return { permissionIds: [permission()] };
    case 'POST /roles/:id/children':
      return { childId: role() };
    case 'POST /permissions':
      return { action: 'hostile', resource: `thing-${n}`, name: `P ${n}`, description: null };
    case 'PATCH /permissions/:id':
      return { name: `P renamed ${n}`, description: 'x' };
    case 'POST /email-providers':
      return {
        name: `Provider ${n}`,
        type: 'smtp',
        fromEmail: 'from@example.com',
        fromName: 'From',
        config: { host: '127.0.0.1', port: 1, secure: false },
        isDefault: false,
      };
    case 'PATCH /email-providers/:id':
      return { name: `Provider renamed ${n}`, fromName: null };
    case 'POST /email-providers/:id/test':
      return { to: `to${n}@example.com` };
    case 'POST /email-templates':
      return { slug: `tpl-${n}`, name: 'T', subject: 'Hi {{name}}', html: '<p>{{name}}</p>', text: 'x' };
    case 'PATCH /email-templates/:id':
      return { subject: `Subject ${n} {{name}}`, html: '<p>Hi</p>' };
    case 'PATCH /email-templates/layout':
      return { header: '<header>h</header>', footer: '<footer>f</footer>' };
    case 'POST /email-templates/:id/preview':
      return { variables: { name: 'Ada', count: 3, ok: true, none: null } };
    case 'POST /email/send':
      return { to: `to${n}@example.com`, subject: 'S', html: '<p>x</p>', text: 'x' };
    case 'POST /email/send-with-template':
      return {
        to: `to${n}@example.com`,
        template: g.pick(['verify-email', 'promo']),
        variables: { name: 'Ada' },
      };
    case 'POST /user-fields':
      return {
        name: `field${n}`,
        type: g.pick(['text', 'number', 'checkbox', 'select']),
        label: 'F',
        required: false,
        options: ['a', 'b'],
      };
    case 'PATCH /user-fields/:id':
      return { label: `Label ${n}` };
    case 'PATCH /user-fields/reorder':
      return { ids: [...P.kinds.userField.main, ...P.kinds.userField.victims] };
    case 'POST /collections':
      return {
        slug: `hc${n}`,
        labels: { singular: 'H', plural: 'Hs' },
        drafts: g.chance(0.5),
        fields: newFields(),
      };
    case 'POST /singles':
      return { slug: `hs${n}`, label: 'H', fields: newFields() };
    case 'POST /field-groups':
      return { slug: `hg${n}`, label: 'H', fields: [{ name: 'a', type: 'text' }] };
    case 'PATCH /collections/:slug':
    case 'PATCH /singles/:slug/schema':
    case 'PATCH /field-groups/:slug':
      return g.chance(0.5)
        ? { labels: { singular: 'X', plural: 'Xs' }, label: 'X' }
        : { fields: fieldsOf(slug) };
    case 'POST /collections/schema/:slug/preview':
    case 'POST /collections/schema/:slug/apply':
    case 'POST /singles/schema/:slug/preview':
    case 'POST /singles/schema/:slug/apply':
    case 'POST /field-groups/schema/:slug/preview':
    case 'POST /field-groups/schema/:slug/apply':
      return { fields: fieldsOf(slug), confirmDestructive: g.chance(0.2) };
    case 'POST /collections/:slug/entries':
      return entryBody(slug ?? 'articles', g, P, n, false);
    case 'PATCH /collections/:slug/entries/:id':
      return entryBody(slug ?? 'articles', g, P, n, true);
    case 'PATCH /collections/:slug/entries':
      return {
        where: g.pick([
          { title: { equals: `nothing ${n}` } },
          { id: { equals: uuid(g) } },
          { views: { greater_than: 1e9 } },
        ]),
        data: entryBody(slug ?? 'articles', g, P, n, true),
        ...(g.chance(0.3) ? { status: 'all' } : {}),
      };
    case 'POST /collections/:slug/entries/bulk-delete':
      return { ids: [g.pick(P.entries[slug ?? '']?.victims ?? [uuid(g)]), uuid(g)] };
    case 'POST /collections/:slug/entries/bulk-update':
      return {
        ids: [g.pick(P.entries[slug ?? '']?.main ?? [uuid(g)]), uuid(g)],
        data: entryBody(slug ?? 'articles', g, P, n, true),
      };
    case 'PATCH /singles/:slug':
      return singleBody(slug ?? 'site', g, n);
    default:
      return { name: `Thing ${n}`, title: `Thing ${n}` };
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies

interface BodyPlan {
  body?: Buffer;
  headers: Array<[string, string]>;
  chunked?: boolean;
  /** The body as text (decoded), to tell echoes from leaks and to see which resources it names. */
  plain: string;
  tags: string[];
}

const MARK = '__HOSTILE_VALUE_MARK__';
const KEY_MARK = '__HOSTILE_KEY_MARK__';
const JSON_CT: [string, string] = ['Content-Type', 'application/json'];

let gzipBomb: Buffer | undefined;
const bomb = () => (gzipBomb ??= gzipSync(Buffer.from(`{"a":[${'0,'.repeat(3_000_000)}0]}`), { level: 9 }));

/** Paths (arrays of keys) to every value of `value`, three levels deep at most. */
function valuePaths(
  value: unknown,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
) {
  if (prefix.length >= 3 || value === null || typeof value !== 'object') {
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    const p = [...prefix, Array.isArray(value) ? Number(k) : k];
    out.push(p);
    valuePaths(v, p, out);
  }
  return out;
}

function setAt(target: unknown, path: Array<string | number>, v: unknown): void {
  let at = target as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) {
    at = at[k] as Record<string | number, unknown>;
  }
  at[path[path.length - 1]] = v;
}

/** `valid` as JSON with one value (or an added key) hostile; raw bytes spliced when needed. */
function withOneHostile(g: Gen, P: Pools, valid: Record<string, unknown>): { bytes: Buffer; tags: string[] } {
  const copy = JSON.parse(JSON.stringify(valid)) as Record<string, unknown>;
  const h = hostileValue(g, P);
  const paths = valuePaths(copy);
  let tag: string;
  if (paths.length && g.chance(0.8)) {
    const p = g.pick(paths);
    setAt(copy, p, MARK);
    tag = `field:${p.join('.')}`;
  } else {
    copy[KEY_MARK] = MARK;
    tag = 'added-key';
  }
  let json = JSON.stringify(copy);
  const keyText = g.pick([
    '"__proto__"',
    '"constructor"',
    '"prototype"',
    '"unknownField"',
    '"isSuperAdmin"',
    '"id"',
    '"createdAt"',
    '"\\u0000"',
    '"\\ud800"',
    '""',
    `"${'k'.repeat(10_000)}"`,
    '"roleIds"',
    '"status"',
  ]);
  json = json.replace(`"${KEY_MARK}"`, keyText);
  const [before, after] = json.split(`"${MARK}"`);
  const bytes = h.rawInString
    ? Buffer.concat([Buffer.from(`${before}"a`), h.rawInString, Buffer.from(`b"${after}`)])
    : Buffer.from(`${before}${h.json}${after}`);
  return {
    bytes,
    tags: [tag, `value:${h.tag}`, ...(tag === 'added-key' ? [`key:${keyText.slice(0, 20)}`] : [])],
  };
}

/** Every leaf replaced by a value of another type. */
function wrongTypes(value: unknown): unknown {
  if (Array.isArray(value)) {
    return Object.fromEntries(value.map((v, i) => [String(i), wrongTypes(v)]));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrongTypes(v)]));
  }
  switch (typeof value) {
    case 'string':
      return value.length % 2 ? 12345 : [value];
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'yes' : 0;
    default:
      return { value };
  }
}

function planBody(
  g: Gen,
  P: Pools,
  route: Route,
  method: string,
  n: number,
  slug: string | undefined,
): BodyPlan {
  const valid = validBody(route, g, P, n, slug);
  const validText = JSON.stringify(valid);
  const json = (s: string | Buffer, tags: string[]): BodyPlan => ({
    body: Buffer.isBuffer(s) ? s : Buffer.from(s),
    headers: [JSON_CT],
    plain: Buffer.isBuffer(s) ? s.toString('utf8') : s,
    tags,
  });
  const writes = method === 'POST' || method === 'PATCH' || method === 'PUT';
  if (!writes && g.chance(0.8)) {
    return { headers: [], plain: '', tags: ['no-body'] };
  }
  const roll = g.r();
  let plan: BodyPlan;
  if (!writes) {
    plan = g.pick<() => BodyPlan>([
      () => json(validText, ['body-on-' + method]),
      () => json(deepArray(g.pick(DEPTHS)), ['body-on-' + method, 'deep']),
      () => ({
        body: Buffer.from('hello'),
        headers: [['Content-Type', 'text/plain']],
        plain: 'hello',
        tags: ['body-on-' + method, 'text/plain'],
      }),
      () => ({
        body: Buffer.from(validText),
        headers: [JSON_CT, ['Content-Encoding', 'gzip']],
        plain: validText,
        tags: ['body-on-' + method, 'gzip-junk'],
      }),
    ])();
  } else if (roll < 0.18) {
    plan = json(validText, ['valid']);
  } else if (roll < 0.48) {
    const { bytes, tags } = withOneHostile(g, P, valid);
    plan = json(bytes, ['one-hostile', ...tags]);
  } else if (roll < 0.54) {
    const extra = g.pick([
      '"__proto__":{"isSuperAdmin":true,"polluted":1},',
      '"constructor":{"prototype":{"polluted":1}},',
      '"id":"00000000-0000-0000-0000-000000000000","createdAt":"1970-01-01","isSuperAdmin":true,',
      '"unknownField":1,"another":[1,2],',
      `${Object.keys(valid)[0] ? `"${Object.keys(valid)[0]}":{"$gt":""},` : ''}`,
    ]);
    plan = json(`{${extra}${validText.slice(1)}`, ['extra-fields']);
  } else if (roll < 0.7) {
    const d = g.pick(DEPTHS);
    const which = g.int(10);
    const bodies: Array<[string, () => string]> = [
      [`deep-root-${d}`, () => g.pick([deepArray, deepObject, deepMixed])(d)],
      ['root-type', () => g.pick(['null', '1', '"str"', 'true', '[]', `[${validText}]`, '0', '-1e999'])],
      ['huge-array', () => `[${new Array(g.pick([50_000, 200_000])).fill('0').join(',')}]`],
      ['over-1MiB', () => JSON.stringify({ ...valid, pad: 'x'.repeat(1_100_000) })],
      ['wrong-types', () => JSON.stringify(wrongTypes(valid))],
      ['all-null', () => JSON.stringify(Object.fromEntries(Object.keys(valid).map((k) => [k, null])))],
      [
        'wide-object',
        () =>
          JSON.stringify({
            ...valid,
            ...Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])),
          }),
      ],
      [`deep-in-valid-${d}`, () => `{"nested":${deepObject(d)},${validText.slice(1)}`],
      [
        'duplicate-keys',
        () =>
          `{${Object.keys(valid)[0] ? `"${Object.keys(valid)[0]}":${deepArray(d)},` : ''}${validText.slice(1)}`,
      ],
      [
        'proto-everywhere',
        () =>
          `{${Object.keys(valid)
            .map((k) => `${JSON.stringify(k)}:${g.pick(PROTO_VALUES)}`)
            .join(',')}}`,
      ],
    ];
    const [tag, make] = bodies[which];
    plan = json(make(), ['generic', tag]);
  } else if (roll < 0.78) {
    const cut = g.int(validText.length);
    const [tag, body] = g.pick<[string, string | Buffer]>([
      ['truncated', validText.slice(0, cut)],
      ['brace', '{'],
      ['empty-value', '{"a":}'],
      ['single-quotes', validText.replace(/"/g, "'")],
      ['bare-keys', '{a:1}'],
      ['NaN', 'NaN'],
      ['undefined', 'undefined'],
      ['bom', `\ufeff${validText}`],
      ['trailing-comma', validText.replace(/}$/, ',}')],
      ['two-documents', `${validText}${validText}`],
      ['comment', `// c\n${validText}`],
      ['unterminated', '"abc'],
      ['garbage-after', `${validText}xyz`],
      ['whitespace', '   \n\t '],
      ['bad-escape', '{"a":"\\x41"}'],
      ['short-unicode-escape', '{"a":"\\u12"}'],
      ['leading-zero', '{"a":01}'],
      ['infinity', '{"a":Infinity}'],
      ['raw-nul', Buffer.from([0x7b, 0x00, 0x7d])],
      ['raw-ff', Buffer.from([0xff, 0xfe, 0xfd])],
      ['utf16', Buffer.from(validText, 'utf16le')],
    ]);
    plan = json(body, ['malformed', tag]);
  } else if (roll < 0.86) {
    const [tag, ct, body] = g.pick<[string, string | undefined, string]>([
      ['text/plain', 'text/plain', validText],
      ['text/plain-utf8', 'text/plain; charset=utf-8', validText],
      [
        'multipart',
        'multipart/form-data; boundary=XyZ',
        `--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n${validText}\r\n--XyZ--\r\n`,
      ],
      ['form', 'application/x-www-form-urlencoded', 'a=1&__proto__[x]=1&name=%00'],
      ['no-content-type', undefined, validText],
      ['xml', 'application/xml', '<a>1</a>'],
      ['charset-utf16', 'application/json; charset=utf-16', validText],
      ['charset-koi8', 'application/json; charset=koi8-r', validText],
      ['charset-bogus', 'application/json; charset=bogus-9', validText],
      ['upper-json', 'APPLICATION/JSON', validText],
      ['vnd-json', 'application/vnd.api+json', validText],
      ['merge-patch', 'application/merge-patch+json', validText],
      ['json-list', 'application/json, text/plain', validText],
      ['jsonp', 'application/jsonp', validText],
      ['space-json', ' application/json', validText],
      ['semicolons', 'application/json;;;', validText],
      ['octet', 'application/octet-stream', validText],
      ['star', '*/*', validText],
      ['empty-ct', '', validText],
    ]);
    plan = {
      body: Buffer.from(body),
      headers: ct === undefined ? [] : [['Content-Type', ct]],
      plain: body,
      tags: ['content-type', tag],
    };
  } else if (roll < 0.95) {
    const deep = g.chance(0.3) ? `{"x":${deepArray(g.pick([100, 5000]))}}` : validText;
    const [tag, encoding, body] = g.pick<[string, string, () => Buffer]>([
      ['gzip-junk', 'gzip', () => Buffer.from(validText)],
      ['gzip-valid', 'gzip', () => gzipSync(deep)],
      ['gzip-truncated', 'gzip', () => gzipSync(validText).subarray(0, 12)],
      ['gzip-bomb', 'gzip', bomb],
      ['deflate-junk', 'deflate', () => Buffer.from(validText)],
      ['deflate-valid', 'deflate', () => deflateSync(deep)],
      ['br-junk', 'br', () => Buffer.from(validText)],
      ['br-valid', 'br', () => brotliCompressSync(deep)],
      ['compress', 'compress', () => Buffer.from(validText)],
      ['unknown', 'x-unknown', () => Buffer.from(validText)],
      ['identity', 'identity', () => Buffer.from(validText)],
      ['gzip-twice-named', 'gzip, gzip', () => gzipSync(validText)],
      ['upper-gzip', 'GZIP', () => gzipSync(validText)],
      ['gzip-identity', 'gzip, identity', () => gzipSync(validText)],
      ['empty-encoding', '', () => Buffer.from(validText)],
    ]);
    plan = {
      body: body(),
      headers: [JSON_CT, ['Content-Encoding', encoding]],
      plain: /valid|twice|upper|identity/.test(tag) ? deep : validText,
      tags: ['content-encoding', tag],
    };
  } else {
    plan = g.pick<() => BodyPlan>([
      () => ({ headers: [JSON_CT], plain: '', tags: ['no-body-json-ct'] }),
      () => ({ body: Buffer.alloc(0), headers: [JSON_CT], plain: '', tags: ['empty-body'] }),
      () => json('{}', ['empty-object']),
      () => ({ headers: [], plain: '', tags: ['no-body'] }),
    ])();
  }
  if (plan.body && plan.body.length > 0 && g.chance(0.1)) {
    plan.chunked = true;
    plan.tags.push('chunked');
  }
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Cases

interface Case {
  n: number;
  route: Route;
  caller: CallerName;
  method: string;
  target: string;
  /** Credentials: the caller's own, none, or a replacement. */
  auth: 'caller' | 'drop';
  authorization?: string | Buffer;
  cookie?: { mode: 'replace' | 'append'; value: string | Buffer };
  csrf: 'ok' | 'drop' | 'mismatch';
  headers: Array<[string, string | Buffer]>;
  body?: Buffer;
  chunked?: boolean;
  plain: string;
  sentRequestId?: string;
  tags: string[];
}

function generate(n: number, routes: Route[], P: Pools): Case {
  const g = caseGen(n);
  const tags: string[] = [];
  // Route: weighted; a few cases go to paths no route has.
  let route: Route;
  if (g.chance(0.02)) {
    route = {
      method: g.pick(['GET', 'POST', 'DELETE']),
      path: g.pick([
        `${API}/nope`,
        `${API}/users/:id/nope/deeper`,
        `${API}/collections/:slug/entries/:id/nope`,
        `${API}/../../etc/passwd`,
        `${API}/%2e%2e/%2e%2e/etc/passwd`,
        `${API}`,
        `${API}/`,
        '/admin/api//users',
        '/api/health/x',
        `${API}/auth`,
      ]),
      weight: 0,
    };
    tags.push('unknown-route');
  } else {
    const total = routes.reduce((s, r) => s + r.weight, 0);
    let x = g.r() * total;
    route = routes[routes.length - 1];
    for (const r of routes) {
      x -= r.weight;
      if (x < 0) {
        route = r;
        break;
      }
    }
    // The first cases visit the routes in turn, so every route gets its share however many
    // routes there are (the weighted draw alone left a floored route under 10 of 6000).
    if (n < routes.length * MIN_PER_ROUTE) {
      route = routes[n % routes.length];
    }
  }
  let x = g.r();
  let caller: CallerName = 'anonymous';
  for (const [name, share] of CALLERS) {
    x -= share;
    if (x < 0) {
      caller = name;
      break;
    }
  }
  if (caller === 'anonymous' || caller === 'lowPrivilege') {
    P = P.unprivileged!;
  }
  let method = route.method;
  if (g.chance(0.03)) {
    method = g.pick(['PUT', 'OPTIONS', 'HEAD', 'DELETE', 'PATCH', 'POST', 'GET', 'TRACE', 'PROPFIND']);
    tags.push(`method-${method}`);
  }

  // Path parameters.
  let slug: string | undefined;
  const segments = route.path.split('/').map((seg) => {
    if (!seg.startsWith(':')) {
      return seg;
    }
    const kind = paramKind(route.path, seg.slice(1));
    const pool: Pool | undefined =
      kind === 'entry'
        ? (P.entries[slug ?? ''] ?? { main: [], victims: [] })
        : kind === 'any'
          ? { main: Object.values(P.kinds).flatMap((k) => k.main), victims: [] }
          : P.kinds[kind];
    const preferVictims = method === 'DELETE' || /bulk-delete$/.test(route.path);
    const real = () => {
      const list =
        pool && pool.victims.length && (preferVictims ? g.chance(0.8) : g.chance(0.1))
          ? pool.victims
          : pool?.main;
      return list?.length ? g.pick(list) : undefined;
    };
    if (g.chance(0.6)) {
      const v = real();
      if (v !== undefined) {
        if (kind === 'collection' || kind === 'single' || kind === 'fieldGroup') {
          slug = v;
        }
        return v;
      }
    }
    const { value, tag } = pathSegment(g, real);
    tags.push(tag);
    return value;
  });
  let target = segments.join('/');

  // Query string.
  const reads = method === 'GET';
  if (g.chance(reads ? 0.45 : 0.12)) {
    const parts = Array.from({ length: 1 + g.int(3) }, () => hostileQueryFragment(g, P));
    target += `?${parts.join(g.pick(['&', '&', '&', ';', '&&']))}`;
    tags.push('hostile-query');
  } else if (reads && g.chance(0.25)) {
    target += `?${g.pick(BENIGN_QUERIES)}`;
  }

  const plan = planBody(g, P, route, method, n, slug);
  tags.push(...plan.tags);

  const c: Case = {
    n,
    route,
    caller,
    method,
    target,
    auth: 'caller',
    csrf: 'ok',
    headers: [...plan.headers],
    body: plan.body,
    chunked: plan.chunked,
    plain: plan.plain,
    tags,
  };

  // Header mutations.
  const mutations = g.chance(0.7) ? 0 : g.chance(0.75) ? 1 : 2;
  for (let i = 0; i < mutations; i++) {
    mutateHeaders(g, P, c);
  }
  // Keep the request head under Node's limit (the oversized head is tested on its own).
  const headSize = () =>
    Buffer.byteLength(c.target) +
    c.headers.reduce((s, [k, v]) => s + k.length + 4 + (typeof v === 'string' ? v.length : v.length), 0) +
    (c.authorization ? c.authorization.length : 0) +
    (c.cookie ? c.cookie.value.length : 0) +
    1200; // the caller's credentials and framing
  while (headSize() > MAX_HEAD) {
    const long = c.headers.findIndex(([, v]) => v.length > 500);
    if (long >= 0) {
      c.headers.splice(long, 1);
    } else if (c.cookie && c.cookie.value.length > 500) {
      c.cookie = undefined;
    } else if (c.authorization && c.authorization.length > 500) {
      c.authorization = undefined;
    } else {
      c.target = c.target.slice(0, c.target.length - (headSize() - MAX_HEAD) - 10);
      c.tags.push('target-cut');
    }
  }
  return c;
}

function paramKind(routePath: string, param: string): string {
  const resource = routePath.split('/')[3];
  if (param === 'slug') {
    return resource === 'singles' ? 'single' : resource === 'field-groups' ? 'fieldGroup' : 'collection';
  }
  if (param === 'roleId' || param === 'childId') {
    return 'role';
  }
  if (param === 'permissionId') {
    return 'permission';
  }
  if (param === 'id') {
    const kinds: Record<string, string> = {
      users: 'user',
      roles: 'role',
      permissions: 'permission',
      'email-templates': 'template',
      'email-providers': 'provider',
      'user-fields': 'userField',
      'api-keys': 'apiKey',
      collections: 'entry',
    };
    return kinds[resource] ?? 'any';
  }
  return 'any';
}

const JWT_NONE =
  'eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTAwMDAtMDAwMC0wMDAwMDAwMDAwMDAiLCJpc1N1cGVyQWRtaW4iOnRydWV9.';

function mutateHeaders(g: Gen, P: Pools, c: Case): void {
  const { lowToken, apiKey } = P.secrets;
  // A credential variant never lends an unprivileged case the super-admin's token.
  const superToken = P.privileged ? P.secrets.superToken : lowToken;
  switch (g.int(11)) {
    case 0:
    case 1: {
      const [tag, value] = g.pick<[string, string | Buffer]>([
        ['bearer-random', `Bearer ${base64ish(g, 40)}`],
        ['bearer-empty', 'Bearer '],
        ['bearer-bare', 'Bearer'],
        ['bearer-lower-cut', `bearer ${superToken.slice(0, 20)}`],
        ['bearer-jwt-none', `Bearer ${JWT_NONE}`],
        ['bearer-abc', 'Bearer a.b.c'],
        ['bearer-long', `Bearer ${'x'.repeat(6000)}`],
        ['apikey-random', `Bearer svc_live_${base64ish(g, 32)}`],
        ['apikey-empty', 'Bearer svc_live_'],
        ['apikey-long', `Bearer svc_live_${'A'.repeat(4000)}`],
        ['apikey-nul', 'Bearer svc_live_%00'],
        ['apikey-cut', `Bearer ${apiKey.slice(0, -3)}`],
        ['apikey-upper', `Bearer ${apiKey.toUpperCase()}`],
        ['basic', 'Basic YWRtaW46YWRtaW4='],
        ['token-extra', `Bearer ${lowToken} extra`],
        ['token-double-space', `Bearer  ${superToken}`],
        ['token-scheme', 'Token abc'],
        ['bearer-latin1', Buffer.concat([Buffer.from('Bearer '), Buffer.from([0xe9, 0xff, 0x80])])],
        [
          'token-tampered',
          `Bearer ${superToken.replace(/\.(.)/, (_m, ch: string) => `.${ch === 'e' ? 'f' : 'e'}`)}`,
        ],
        ['bearer-null', 'Bearer null'],
        ['bearer-object', 'Bearer [object Object]'],
      ]);
      c.authorization = value;
      c.tags.push(`authorization:${tag}`);
      return;
    }
    case 2:
      c.auth = 'drop';
      c.tags.push('credentials-dropped');
      return;
    case 3: {
      const size = g.pick([1000, 4000, 8000, 12_000]);
      c.headers.push(['X-Padding', 'a'.repeat(size)]);
      c.tags.push(`long-header-${size}`);
      return;
    }
    case 4: {
      const [tag, value] = g.pick<[string, string | Buffer]>([
        ['space', 'a b'],
        ['dots', '../../etc/passwd'],
        ['html', '<script>alert(1)</script>'],
        ['pct-nul', '%00'],
        ['empty', ''],
        ['129', 'x'.repeat(129)],
        ['128-sane', 'x'.repeat(128)],
        ['sane', `hostile-${c.n}.ok_ID`],
        ['comma', 'a,b'],
        ['json', '{"a":1}'],
        ['jndi', '${jndi:ldap://x}'],
        ['tab', 'a\tb'],
        ['latin1', Buffer.from([0x69, 0x64, 0xe9, 0xff])],
        ['utf8', Buffer.from('日本', 'utf8')],
        ['long', 'r'.repeat(3000)],
      ]);
      c.headers.push(['X-Request-Id', value]);
      if (g.chance(0.15)) {
        c.headers.push(['X-Request-Id', 'second-id']);
        c.tags.push('request-id-twice');
      }
      // Node joins repeated X-Request-Id headers with ", ": only a single string header is echoed.
      const ids = c.headers.filter(([k]) => k === 'X-Request-Id');
      c.sentRequestId = ids.length === 1 && typeof value === 'string' ? value : undefined;
      c.tags.push(`request-id:${tag}`);
      return;
    }
    case 5:
    case 6: {
      const [tag, value] = g.pick<[string, string | Buffer]>([
        ['session-garbage', 'svc_session=garbage'],
        ['session-bad-pct', 'svc_session=%E0%A4%A'],
        ['session-jwt-none', `svc_session=${JWT_NONE}`],
        ['session-json-proto', 'svc_session=j%3A%7B%22__proto__%22%3A%7B%22x%22%3A1%7D%7D'],
        ['session-json-array', 'svc_session=j:["a"]'],
        ['refresh-garbage', 'svc_refresh=garbage; svc_csrf=abc'],
        ['refresh-json', 'svc_refresh=j%3A%7B%22a%22%3A1%7D'],
        ['session-signed-prefix', 'svc_session=s%3Aabc.def'],
        ['session-quoted', 'svc_session="quoted"'],
        ['session-long', `svc_session=${'x'.repeat(6000)}`],
        ['semicolons', ';;;'],
        ['equals', '='],
        ['session-twice', 'svc_session=a; svc_session=b'],
        ['pending-garbage', 'svc_pending=garbage'],
        ['pending-json', 'svc_pending=j%3A%7B%7D'],
        ['csrf-nul', 'svc_csrf=%00'],
        ['proto-names', '__proto__=x; constructor=y; hasOwnProperty=z'],
        ['session-bearer-token', `svc_session=${superToken}`],
        ['session-low-token', `svc_session=${lowToken}`],
        ['session-bytes', Buffer.concat([Buffer.from('svc_session='), Buffer.from([0xff, 0xfe])])],
      ]);
      c.cookie = { mode: g.chance(0.5) ? 'replace' : 'append', value };
      c.tags.push(`cookie:${tag}:${c.cookie.mode}`);
      return;
    }
    case 7:
      c.csrf = g.pick(['drop', 'mismatch'] as const);
      c.tags.push(`csrf-${c.csrf}`);
      return;
    case 8: {
      const [name, value] = g.pick<[string, string]>([
        ['Origin', 'http://evil.example'],
        ['Origin', 'null'],
        ['Origin', 'not a url'],
        ['Origin', 'http://localhost:3000'],
        ['Referer', 'javascript:alert(1)'],
        ['Referer', '%E0%A4%A'],
        ['Origin', `http://${'a'.repeat(2000)}.example`],
      ]);
      c.headers.push([name, value]);
      c.tags.push(`${name.toLowerCase()}:${value.slice(0, 30)}`);
      return;
    }
    case 9: {
      const [name, value] = g.pick<[string, string]>([
        ['Accept', 'application/xml'],
        ['Accept', 'text/html;q=0'],
        ['Accept-Encoding', 'gzip, br, deflate'],
        ['Accept-Charset', 'utf-16'],
        ['X-Forwarded-For', '127.0.0.1, garbage, ::1'],
        ['X-Forwarded-Proto', 'gopher'],
        ['X-HTTP-Method-Override', 'DELETE'],
        ['__proto__', 'polluted'],
        ['constructor', 'x'],
        ['Range', 'bytes=0-1'],
        ['If-None-Match', '*'],
        ['Content-Language', '%00'],
        ['X-CSRF-Token', 'j:{"a":1}'],
      ]);
      c.headers.push([name, value]);
      c.tags.push(`header:${name}`);
      return;
    }
    default:
      // A Content-Type that contradicts the body (or stands alone on a body-less request).
      c.headers = c.headers.filter(([k]) => k !== 'Content-Type');
      c.headers.push([
        'Content-Type',
        g.pick(['text/plain', 'application/json', 'multipart/form-data', 'application/json; charset=utf-16']),
      ]);
      c.tags.push('content-type-override');
  }
}

// ---------------------------------------------------------------------------------------------
// Checks

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
/**
 * A problem names what is wrong; it does not send a hostile body back. The service lists at most
 * 50 issues of at most 300-character paths and messages, so an answer stays well under this.
 */
const MAX_ERROR_BODY = 65_536;
/**
 * Refusals written by the HTTP server before any route (README "Limits"): their HTTP status is the
 * protocol's own (431 headers too large, 408 not in time), the code the closest of SPEC 7's.
 */
const PROTOCOL_STATUSES: Record<number, string> = { 431: 'PAYLOAD_TOO_LARGE', 408: 'VALIDATION_ERROR' };

/** Internals that must never reach a client. The SQL patterns are case-sensitive keywords so a
 * message naming a parameter (`select must be ...`) does not count; the hostile vocabulary above
 * avoids them all, so stored hostile data read back cannot trip them either. */
const LEAKS: Array<[string, RegExp]> = [
  ['stack frame', /\bat (?:async )?[\w$.<>[\]]+ \(/],
  ['source position', /\.(?:ts|js|cjs|mjs):\d+:\d+/],
  ['node_modules', /node_modules/],
  ['typeorm error', /QueryFailedError|EntityNotFoundError|TypeORMError|EntityMetadataNotFound/],
  ['SQL SELECT', /\bSELECT\b[\s\S]{0,300}\bFROM\b/],
  ['SQL INSERT', /\bINSERT INTO\b/],
  ['SQL UPDATE', /\bUPDATE\s+"?\w+"?\s+SET\b/],
  ['SQL DELETE', /\bDELETE FROM\b/],
  ['PG syntax error', /syntax error at/i],
  ['PG duplicate key', /duplicate key value/i],
  ['PG constraint', /violates (?:unique|foreign key|not-null|check|exclusion) constraint/i],
  ['PG invalid input', /invalid input (?:syntax|value) for/i],
  ['PG relation/column', /(?:relation|column) "[^"]*" (?:does not exist|of relation)/i],
  ['PG out of range', /out of range for type/i],
  [
    'PG encoding',
    /unsupported Unicode escape sequence|invalid byte sequence for encoding|cannot be converted to text/i,
  ],
  [
    'JS runtime error',
    /Cannot read propert(?:y|ies) of|Maximum call stack size exceeded|is not a function|is not iterable|Unexpected token .* in JSON at position/,
  ],
];

interface Failure {
  reason: string;
  detail: string;
}

/** A 503 the service answers by design: the SMTP server a provider names refused the message. */
const isSmtpFailure = (c: Case, res: RawResponse, body: unknown) =>
  res.status === 503 &&
  /\/email(-providers\/[^/]+\/test|\/send|\/send-with-template)/.test(c.target) &&
  (body as { error?: { message?: string } } | undefined)?.error?.message === 'The email could not be sent';

/** Swagger UI's page and assets (issue 21): HTML, CSS and JavaScript, not JSON. */
const API_DOCS_ROUTE = /^\/admin\/api\/docs(\/:asset)?$/;

/** CSV exports (issue 22: the audit log): a text/csv attachment. */
const CSV_ROUTE = /\/export$/;
const CSV_TYPE = /^text\/csv; charset=utf-8$/;

/** The browser pages (src/modules/pages): everything under /admin but /admin/api. */
const PAGE_ROUTE = /^\/admin(?:$|\/(?!api(?:\/|$)))/;
const PAGE_TYPE = /^text\/(?:html|css|javascript); charset=utf-8$/;

function check(c: Case, res: RawResponse): { failures: Failure[]; tolerated?: string } {
  const failures: Failure[] = [];
  const fail = (reason: string, detail = '') => failures.push({ reason, detail });
  const textBody = res.body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = textBody ? JSON.parse(textBody) : undefined;
  } catch {
    parsed = undefined;
  }
  let tolerated: string | undefined;
  if (res.status >= 500) {
    if (isSmtpFailure(c, res, parsed)) {
      tolerated = 'SMTP delivery failure (503)';
    } else {
      fail('5xx', `${res.status}`);
    }
  }
  const rid = res.headers['x-request-id'];
  if (rid === undefined) {
    fail('no X-Request-Id header');
  } else if (!SANE_REQUEST_ID.test(rid)) {
    fail('X-Request-Id header not sane', rid.slice(0, 200));
  } else if (
    c.sentRequestId !== undefined &&
    SANE_REQUEST_ID.test(c.sentRequestId) &&
    rid !== c.sentRequestId
  ) {
    fail('sane X-Request-Id not echoed', `sent ${c.sentRequestId}, got ${rid}`);
  } else if (
    c.sentRequestId !== undefined &&
    !SANE_REQUEST_ID.test(c.sentRequestId) &&
    rid === c.sentRequestId
  ) {
    fail('insane X-Request-Id echoed', rid);
  }
  if (c.method === 'HEAD') {
    return { failures, tolerated };
  }
  if (res.status >= 400 && res.body.length > MAX_ERROR_BODY) {
    fail('oversized error body (input echoed?)', `${res.body.length} bytes`);
  }
  if (res.status >= 400) {
    if (!/^application\/problem\+json/.test(res.headers['content-type'] ?? '')) {
      fail('error without application/problem+json', res.headers['content-type'] ?? '(none)');
    }
    const body = parsed as { error?: Record<string, unknown> } | undefined;
    const error = body?.error;
    if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).join() !== 'error') {
      fail('error body is not { error }');
    } else if (!error || typeof error !== 'object') {
      fail('error is not an object');
    } else {
      const extra = Object.keys(error).filter((k) => !['code', 'message', 'requestId', 'data'].includes(k));
      if (
        typeof error.code !== 'string' ||
        typeof error.message !== 'string' ||
        typeof error.requestId !== 'string'
      ) {
        fail('error envelope fields missing or mistyped');
      }
      if (extra.length) {
        fail('error envelope has extra fields', extra.join(','));
      }
      if (error.requestId !== rid) {
        fail('error.requestId differs from X-Request-Id', `${String(error.requestId)} vs ${rid}`);
      }
      if (
        error.data !== undefined &&
        (error.data === null || typeof error.data !== 'object' || Array.isArray(error.data))
      ) {
        fail('error.data is not an object');
      }
      if (!isErrorCode(error.code)) {
        fail('error.code not one of SPEC 7', String(error.code));
      } else if (ERROR_STATUS[error.code] !== res.status && PROTOCOL_STATUSES[res.status] !== error.code) {
        fail('status does not match error.code', `${res.status} ${error.code}`);
      }
    }
  } else if (
    res.status >= 200 &&
    res.body.length > 0 &&
    !API_DOCS_ROUTE.test(c.route.path) &&
    // The browser pages under /admin (issue 21): HTML, and their script and style sheet.
    !(PAGE_ROUTE.test(c.route.path) && PAGE_TYPE.test(res.headers['content-type'] ?? '')) &&
    !(CSV_ROUTE.test(c.route.path) && CSV_TYPE.test(res.headers['content-type'] ?? '')) &&
    !/^application\/json/.test(res.headers['content-type'] ?? '')
  ) {
    fail('success body not application/json', res.headers['content-type'] ?? '(none)');
  }
  const sent = `${c.target} ${lenientUnescape(c.target)} ${c.plain}`;
  for (const [name, pattern] of LEAKS) {
    if (pattern.test(textBody) && !pattern.test(sent)) {
      fail(`body leaks ${name}`, (pattern.exec(textBody)?.[0] ?? '').slice(0, 200));
    }
  }
  return { failures, tolerated };
}

// ---------------------------------------------------------------------------------------------
// Printing

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

function describeCase(c: Case, P: Pools, sent: Array<[string, string | Buffer]>): Record<string, unknown> {
  const mask = (s: string) =>
    s
      .split(P.secrets.superToken)
      .join('<superAdmin token>')
      .split(P.secrets.lowToken)
      .join('<lowPrivilege token>')
      .split(P.secrets.apiKey)
      .join('<api key>')
      .replace(/svc_session=[A-Za-z0-9._-]{100,}/g, 'svc_session=<session token>')
      .replace(/svc_refresh=[A-Za-z0-9._-]{20,}/g, 'svc_refresh=<refresh token>');
  return {
    seed: SEED,
    case: c.n,
    replay: `HOSTILE_CASES=${c.n} HOSTILE_SEED=${SEED}`,
    caller: c.caller,
    route: `${c.route.method} ${c.route.path}`,
    request: `${c.method} ${clip(c.target, 400)}`,
    headers: sent.map(
      ([k, v]) => `${k}: ${clip(mask(typeof v === 'string' ? v : `<bytes ${v.toString('hex')}>`), 200)}`,
    ),
    body: c.body
      ? `${c.body.length} bytes${c.chunked ? ' (chunked)' : ''}: ${clip(JSON.stringify(c.body.subarray(0, 400).toString('latin1')), 450)}`
      : '(none)',
    tags: c.tags.join(' '),
  };
}

// ---------------------------------------------------------------------------------------------
// The test

describe('hostile input over every route', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let port: number;
  let routes: Route[];
  let P: Pools;
  let superAdmin: CreatedUser;
  let lowUser: CreatedUser;
  let cookieAdmin: CreatedUser;
  let sentinelUser: CreatedUser;
  let sentinelRoleId: string;
  let sentinelTemplateId: string;
  let vaultIds: string[];
  let protectedRows: Array<[string, string]>;
  const errorLogs = new LogCapture();
  let cookieSession: { token: string; refresh: string; csrf: string; stale: boolean; epoch: number };
  const callerAuth: Partial<Record<CallerName, string>> = {};
  let api: (
    method: string,
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; body: Record<string, unknown> }>;

  /** Ids and slugs named by a successful write, and whole tables a successful write may have changed. */
  const touched = new Set<string>();
  const touchedAll = new Set<string>();
  let trackedKeys: string[] = [];
  let before: Snapshot;
  let ran = false;

  type Snapshot = Record<string, Record<string, Record<string, unknown>>>;
  const TABLES: Array<[string, string]> = [
    ['users', 'users'],
    ['roles', 'roles'],
    ['permissions', 'permissions'],
    ['email_templates', 'templates'],
    ['email_providers', 'providers'],
    ['user_fields', 'userFields'],
    ['api_keys', 'apiKeys'],
    ['c_authors', 'authors'],
    ['c_articles', 'articles'],
    ['c_pages', 'pages'],
    ['c_vault', 'vault'],
    ['c_guarded', 'guarded'],
    ['s_site', 'site'],
    ['s_notice', 'notice'],
  ];

  async function snapshot(): Promise<Snapshot> {
    const out: Snapshot = {};
    for (const [table] of TABLES) {
      try {
        const rows: Array<Record<string, unknown>> = await t.db.query(`SELECT * FROM "${table}"`);
        out[table] = Object.fromEntries(rows.map((r) => [String(r.id), JSON.parse(JSON.stringify(r))]));
      } catch {
        out[table] = {};
      }
    }
    return out;
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      adapter: new LimitedExpressAdapter(),
      // Only failures are logged (6,000 requests of info lines would fill the capture): a 5xx
      // failure prints the server's own log line for its request id.
      overrides: { logger: { level: 'error', stream: errorLogs } },
      config: {
        collections: [
          {
            slug: 'authors',
            fields: [
              { name: 'name', type: 'text', required: true, unique: true },
              { name: 'email', type: 'email' },
            ],
            access: { read: true },
          },
          {
            slug: 'articles',
            drafts: true,
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'views', type: 'number', min: 0, index: true },
              { name: 'kind', type: 'select', options: ['news', 'blog'] },
              { name: 'meta', type: 'json' },
              { name: 'body', type: 'richText' },
              { name: 'author', type: 'relationship', relationTo: 'authors' },
              { name: 'coauthors', type: 'relationship', relationTo: 'authors', hasMany: true },
            ],
          },
          {
            // Named only by anonymous and low-privilege cases (the latter may read and create).
            slug: 'guarded',
            drafts: true,
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'n', type: 'number', min: 0 },
              { name: 'data', type: 'json' },
            ],
          },
          {
            // Never named by the generator: must read back unchanged whatever happened.
            slug: 'vault',
            drafts: true,
            fields: [
              { name: 'secret', type: 'text' },
              { name: 'n', type: 'number' },
              { name: 'data', type: 'json' },
            ],
          },
        ],
        singles: [
          {
            slug: 'site',
            fields: [
              { name: 'siteName', type: 'text' },
              { name: 'count', type: 'number' },
              { name: 'theme', type: 'select', options: ['light', 'dark'] },
              { name: 'extra', type: 'json' },
            ],
          },
          { slug: 'notice', fields: [{ name: 'text', type: 'text' }] },
        ],
        apiKeys: { rateLimit: { max: 1_000_000, windowSeconds: 3600 } },
        security: { authRateLimit: { max: 1_000_000, windowSeconds: 3600 } },
        rateLimit: { max: 1_000_000, windowSeconds: 60 },
      },
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    routes = discoverRoutes(t);

    superAdmin = await createUser(t, { roles: ['super-admin'] });
    const superHeaders = await bearerFor(t, superAdmin.id);
    const lowPrivileged = await userWithPermissions(t, [
      'read-articles',
      'read-authors',
      'read-guarded',
      'create-guarded',
    ]);
    lowUser = lowPrivileged;
    const lowHeaders = await bearerFor(t, lowUser.id);
    cookieAdmin = await createUser(t, { roles: ['super-admin'] });
    const signedIn = await signIn(t, cookieAdmin);
    cookieSession = {
      token: signedIn.body.token,
      refresh: cookieValue(setCookies(signedIn.res).svc_refresh),
      csrf: signedIn.browser.csrf,
      stale: false,
      epoch: 0,
    };
    const keyRes = await signedIn.browser.post('/api-keys', { name: 'hostile caller', type: 'full-access' });
    expect(keyRes.status).toBe(201);
    const apiKey = keyRes.body.key as string;
    callerAuth.superAdmin = superHeaders.Authorization;
    callerAuth.lowPrivilege = lowHeaders.Authorization;
    callerAuth.apiKey = `Bearer ${apiKey}`;

    api = async (method, path, body) => {
      let r = t.http[method.toLowerCase() as 'post'](`${API}${path}`).set(superHeaders);
      if (body !== undefined) {
        r = r.send(body as object);
      }
      const res = await r;
      if (res.status >= 300) {
        throw new Error(`setup ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return { status: res.status, body: res.body as Record<string, unknown> };
    };
    const itemId = async (method: string, path: string, body?: unknown) => {
      const res = await api(method, path, body);
      const item = (res.body.item ?? res.body) as { id: string };
      return item.id;
    };

    // Content: a field group, a DB collection embedding it (component and repeatable component).
    const seoFields = [
      { name: 'metaTitle', type: 'text', required: true },
      { name: 'metaDescription', type: 'textarea' },
    ];
    const pagesFields = [
      { name: 'title', type: 'text' },
      { name: 'seo', type: 'component', fieldGroup: 'seo' },
      { name: 'blocks', type: 'component', fieldGroup: 'seo', repeatable: true },
      { name: 'data', type: 'json' },
    ];
    await api('POST', '/field-groups', { slug: 'seo', label: 'SEO', fields: seoFields });
    await api('POST', '/field-groups', {
      slug: 'spare',
      label: 'Spare',
      fields: [{ name: 'x', type: 'text' }],
    });
    await api('POST', '/collections', { slug: 'pages', fields: pagesFields });
    await api('POST', '/collections', { slug: 'scratch', fields: [{ name: 'title', type: 'text' }] });
    await api('POST', '/singles', { slug: 'banner', fields: [{ name: 'text', type: 'text' }] });

    const entries: Record<string, Pool> = {};
    const seedEntries = async (slug: string, bodies: object[], victims: number) => {
      const ids: string[] = [];
      for (const b of bodies) {
        ids.push(await itemId('POST', `/collections/${slug}/entries`, b));
      }
      entries[slug] = { main: ids.slice(0, ids.length - victims), victims: ids.slice(ids.length - victims) };
    };
    await seedEntries(
      'authors',
      ['Ann', 'Bo', 'Cy', 'Victim A'].map((name) => ({ name, email: `${name[0]}@example.com` })),
      1,
    );
    const a = entries.authors.main;
    await seedEntries(
      'articles',
      [
        {
          title: 'Published',
          status: 'published',
          views: 3,
          kind: 'news',
          meta: { k: 1 },
          author: a[0],
          coauthors: [a[1], a[2]],
          body: doc(paragraph(text('Hi', 1))),
        },
        { title: 'Draft', status: 'draft', views: 0, kind: 'blog', author: a[1] },
        { title: 'Other', status: 'published', meta: [1, 2, { deep: true }] },
        { title: 'Victim 1', status: 'published' },
        { title: 'Victim 2', status: 'draft' },
      ],
      2,
    );
    await seedEntries(
      'pages',
      [
        { title: 'Home', seo: { metaTitle: 'Home' }, blocks: [{ metaTitle: 'B' }], data: { a: 1 } },
        { title: 'About', seo: { metaTitle: 'About', metaDescription: 'x' } },
        { title: 'Victim page' },
      ],
      1,
    );
    await seedEntries('scratch', [{ title: 'S1' }, { title: 'S2' }], 1);
    vaultIds = [];
    for (const b of [
      { secret: 'keep-1', n: 1, data: { a: [1, 2] }, status: 'published' },
      { secret: 'keep-2', n: 2, status: 'draft' },
      { secret: 'keep-3', data: null, status: 'published' },
    ]) {
      vaultIds.push(await itemId('POST', '/collections/vault/entries', b));
    }
    await api('PATCH', '/singles/site', { siteName: 'Site', count: 3, theme: 'dark', extra: { x: 1 } });
    await api('PATCH', '/singles/notice', { text: 'keep me' });
    await api('PATCH', '/singles/banner', { text: 'banner' });

    // Accounts, roles, permissions (the callers' own stay out of every pool).
    const roleId = async (name: string, permissionSlugs: string[]) => {
      const all = (await t.db.query(`SELECT id FROM permissions WHERE slug = ANY($1)`, [
        permissionSlugs,
      ])) as Array<{ id: string }>;
      return itemId('POST', '/roles', { name, permissionIds: all.map((p) => p.id) });
    };
    const editor = await roleId('Editor', ['read-articles', 'update-articles']);
    const viewer = await roleId('Viewer', ['read-users']);
    const victimRoles = [await roleId('Victim role 1', []), await roleId('Victim role 2', ['read-roles'])];
    sentinelRoleId = await roleId('Sentinel role', ['read-vault']);
    const superRole = (
      (await t.db.query(`SELECT id FROM roles WHERE slug = 'super-admin'`)) as Array<{ id: string }>
    )[0].id;

    const alice = await createUser(t, { email: 'alice@example.com' });
    const bob = await createUser(t, { email: 'bob@example.com' });
    const carol = await createUser(t, { email: 'carol@example.com', verified: false });
    const dave = await createUser(t, { email: 'dave@example.com', active: false });
    await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [bob.id, editor]);
    const victimUsers = [await createUser(t), await createUser(t)];
    sentinelUser = await createUser(t, { email: 'sentinel@example.com' });
    await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [
      sentinelUser.id,
      sentinelRoleId,
    ]);

    const permission = await itemId('POST', '/permissions', {
      action: 'custom',
      resource: 'widget',
      name: 'Custom widget',
    });
    const victimPermission = await itemId('POST', '/permissions', { action: 'purge', resource: 'widget' });
    const corePermission = (
      (await t.db.query(`SELECT id FROM permissions WHERE slug = 'read-users'`)) as Array<{ id: string }>
    )[0].id;

    const tpl = (slug: string) => ({
      slug,
      name: slug,
      subject: 'Hello {{name}}',
      html: '<p>Hello {{name}}</p>',
      text: 'Hello',
    });
    const promo = await itemId('POST', '/email-templates', tpl('promo'));
    const victimTemplate = await itemId('POST', '/email-templates', tpl('promo-two'));
    sentinelTemplateId = await itemId('POST', '/email-templates', tpl('sentinel-tpl'));
    const coreTemplate = (
      (await t.db.query(`SELECT id FROM email_templates WHERE slug = 'verify-email'`)) as Array<{
        id: string;
      }>
    )[0].id;

    const provider = (await useTestSmtp(t, smtp)).id;
    const victimProvider = (
      await t.app.get(EmailProvidersService).create({
        name: 'Victim provider',
        fromEmail: 'victim@svc.test',
        fromName: null,
        config: { host: smtp.host, port: smtp.port, secure: false, user: null, password: null },
        isDefault: false,
      })
    ).id;

    const userField = await itemId('POST', '/user-fields', {
      name: 'nickname',
      type: 'text',
      label: 'Nickname',
    });
    const victimField = await itemId('POST', '/user-fields', {
      name: 'tmpfield',
      type: 'text',
      label: 'Tmp',
    });

    const keyOf = async (name: string) => {
      const res = await signedIn.browser.post('/api-keys', { name, type: 'read-only' });
      expect(res.status).toBe(201);
      return (res.body.item?.id ?? res.body.id) as string;
    };
    const targetKey = await keyOf('target key');
    const victimKey = await keyOf('victim key');

    // Protected: named only by anonymous and low-privilege cases, so nothing may change them.
    const guardedIds: string[] = [];
    for (const b of [
      { title: 'G1', n: 1, data: { a: 1 }, status: 'published' },
      { title: 'G2', status: 'draft' },
      { title: 'G3', n: 3, status: 'published' },
    ]) {
      guardedIds.push(await itemId('POST', '/collections/guarded/entries', b));
    }
    const erin = await createUser(t, { email: 'erin@example.com' });
    const frank = await createUser(t, { email: 'frank@example.com', verified: false });
    const protectedRole = await roleId('Protected role', ['read-guarded']);
    await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [erin.id, protectedRole]);
    const protectedPermission = await itemId('POST', '/permissions', { action: 'guard', resource: 'widget' });
    const protectedTemplate = await itemId('POST', '/email-templates', tpl('guarded-tpl'));
    const protectedField = await itemId('POST', '/user-fields', {
      name: 'badge',
      type: 'text',
      label: 'Badge',
    });
    const protectedKey = await keyOf('protected key');
    protectedRows = [
      ...guardedIds.map((id) => ['c_guarded', id] as [string, string]),
      ['users', erin.id],
      ['users', frank.id],
      ['roles', protectedRole],
      ['permissions', protectedPermission],
      ['email_templates', protectedTemplate],
      ['user_fields', protectedField],
      ['api_keys', protectedKey],
    ];

    P = {
      privileged: true,
      kinds: {
        user: { main: [alice.id, bob.id, carol.id, dave.id], victims: victimUsers.map((u) => u.id) },
        role: { main: [editor, viewer, superRole], victims: victimRoles },
        permission: { main: [permission, corePermission], victims: [victimPermission] },
        template: { main: [promo, coreTemplate], victims: [victimTemplate] },
        provider: { main: [provider], victims: [victimProvider] },
        userField: { main: [userField], victims: [victimField] },
        apiKey: { main: [targetKey], victims: [victimKey] },
        collection: { main: ['articles', 'authors', 'pages'], victims: ['scratch'] },
        single: { main: ['site'], victims: ['banner'] },
        fieldGroup: { main: ['seo'], victims: ['spare'] },
      },
      entries,
      emails: [alice.email, bob.email, carol.email, dave.email, 'nobody@example.com'],
      fields: {
        pages: pagesFields,
        scratch: [{ name: 'title', type: 'text' }],
        seo: seoFields,
        spare: [{ name: 'x', type: 'text' }],
        banner: [{ name: 'text', type: 'text' }],
      },
      secrets: {
        superToken: superHeaders.Authorization.slice('Bearer '.length),
        lowToken: lowHeaders.Authorization.slice('Bearer '.length),
        apiKey,
      },
    };
    P.unprivileged = {
      ...P,
      privileged: false,
      kinds: {
        ...P.kinds,
        user: { main: [erin.id, frank.id], victims: [] },
        role: { main: [protectedRole], victims: [] },
        permission: { main: [protectedPermission], victims: [] },
        template: { main: [protectedTemplate], victims: [] },
        userField: { main: [protectedField], victims: [] },
        apiKey: { main: [protectedKey], victims: [] },
        collection: { main: ['guarded', 'articles', 'authors'], victims: [] },
      },
      entries: { ...P.entries, guarded: { main: guardedIds, victims: [] } },
      emails: [erin.email, frank.email, 'nobody@example.com'],
    };
    trackedKeys = [
      ...Object.values(P.kinds).flatMap((k) => k.main),
      ...Object.values(P.entries).flatMap((k) => k.main),
    ].map((k) => k.toLowerCase());
    before = await snapshot();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** The headers of a case as sent, with the caller's credentials as they are at this moment. */
  async function headersFor(c: Case): Promise<Array<[string, string | Buffer]>> {
    const out: Array<[string, string | Buffer]> = [];
    if (c.auth === 'caller' && c.caller !== 'anonymous' && c.caller !== 'cookieSession' && !c.authorization) {
      out.push(['Authorization', callerAuth[c.caller]!]);
    }
    if (c.authorization) {
      out.push(['Authorization', c.authorization]);
    }
    if (c.caller === 'cookieSession' && c.auth === 'caller') {
      if (cookieSession.stale) {
        // A hostile request signed the session out, rotated it or changed the password: a new one.
        cookieSession.stale = false;
        const s = await sessionWithoutPassword(t, cookieAdmin.id);
        cookieSession.token = s.token;
        cookieSession.refresh = s.refresh;
        cookieSession.epoch++;
      }
      const own = `svc_session=${cookieSession.token}; svc_refresh=${cookieSession.refresh}; svc_csrf=${cookieSession.csrf}`;
      if (c.cookie?.mode === 'replace') {
        out.push(['Cookie', c.cookie.value]);
      } else if (c.cookie) {
        out.push(['Cookie', Buffer.concat([Buffer.from(`${own}; `), Buffer.from(c.cookie.value)])]);
      } else {
        out.push(['Cookie', own]);
      }
      if (c.csrf === 'ok') {
        out.push(['X-CSRF-Token', cookieSession.csrf]);
      } else if (c.csrf === 'mismatch') {
        out.push(['X-CSRF-Token', `${cookieSession.csrf.slice(1)}x`]);
      }
    } else if (c.cookie) {
      out.push(['Cookie', c.cookie.value]);
    }
    return [...out, ...c.headers];
  }

  /** Marks what a successful write may have changed legitimately (see the integrity test). */
  function recordWrite(c: Case, status: number): void {
    if (status < 200 || status >= 300 || ['GET', 'HEAD', 'OPTIONS'].includes(c.method)) {
      return;
    }
    const decoded = lenientUnescape(c.target);
    const path = decoded.split('?')[0];
    // A write changes the resource its path names; the bulk routes also those their body names.
    const named = `${c.target} ${decoded} ${/\/bulk-/.test(path) ? c.plain : ''}`.toLowerCase();
    for (const key of trackedKeys) {
      if (named.includes(key)) {
        touched.add(key);
      }
    }
    let m: RegExpExecArray | null;
    if (
      (m =
        /^\/admin\/api\/collections\/(?:schema\/)?([^/]+)(?:\/entries(?:\/bulk-\w+)?)?(?:\/apply)?\/?$/.exec(
          path,
        ))
    ) {
      touchedAll.add(m[1]);
    }
    if (
      /^\/admin\/api\/collections\/authors\/entries/.test(path) &&
      (c.method === 'DELETE' || /bulk-delete/.test(path))
    ) {
      touchedAll.add('articles'); // relationship columns are set null when their author goes
    }
    if (/^\/admin\/api\/field-groups/.test(path)) {
      touchedAll.add('pages');
    }
    if ((m = /^\/admin\/api\/singles\/(?:schema\/)?([^/]+)/.exec(path))) {
      touchedAll.add(m[1]);
    }
    if (/^\/admin\/api\/email-providers/.test(path) || /^\/admin\/api\/email\//.test(path)) {
      touchedAll.add('providers');
    }
    if (/^\/admin\/api\/user-fields/.test(path)) {
      touchedAll.add('userFields');
    }
  }

  it(`answers ${CASES} generated hostile requests over every route without a 5xx, in the problem envelope, leaking nothing`, async () => {
    const numbers = ONLY ?? Array.from({ length: CASES }, (_, i) => i);
    const failures: Array<{
      n: number;
      reason: string;
      detail: string;
      status: number;
      response: string;
      request: Record<string, unknown>;
      serverLog?: string[];
    }> = [];
    const statuses: Record<string, number> = {};
    const perRoute = new Map<string, number>();
    const routeStatuses: Record<string, Record<number, number>> = {};
    const tagStatuses: Record<string, Record<number, number>> = {};
    const tolerated: Record<string, number> = {};
    const slow: Array<{ n: number; ms: number; route: string }> = [];
    const bigErrors: Array<{ n: number; bytes: number; route: string }> = [];
    const started = Date.now();

    let next = 0;
    const worker = async () => {
      while (next < numbers.length) {
        const n = numbers[next++];
        const c = generate(n, routes, P);
        const sent = await headersFor(c);
        const key = `${c.route.method} ${c.route.path}`;
        perRoute.set(key, (perRoute.get(key) ?? 0) + 1);
        let res: RawResponse;
        try {
          res = await sendRaw(
            port,
            { method: c.method, target: c.target, headers: sent, body: c.body, chunked: c.chunked },
            30_000,
          );
        } catch (e) {
          failures.push({
            n,
            reason: 'no answer',
            detail: (e as Error).message,
            status: 0,
            response: '',
            request: describeCase(c, P, sent),
          });
          continue;
        }
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const byStatus = (routeStatuses[key] ??= {});
        byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
        for (const tag of c.tags) {
          const byTag = (tagStatuses[tag.replace(/^(field|key):.*/, '$1')] ??= {});
          byTag[res.status] = (byTag[res.status] ?? 0) + 1;
        }
        recordWrite(c, res.status);
        if (
          c.caller === 'cookieSession' &&
          (res.status === 401 ||
            (res.status < 300 && /\/auth\/(logout|refresh|change-password)/.test(c.target)))
        ) {
          cookieSession.stale = true;
        }
        if (res.ms > 5000) {
          slow.push({ n, ms: res.ms, route: key });
        }
        if (res.status >= 400 && res.body.length > MAX_ERROR_BODY) {
          bigErrors.push({ n, bytes: res.body.length, route: key });
        }
        const verdict = check(c, res);
        if (verdict.tolerated) {
          tolerated[verdict.tolerated] = (tolerated[verdict.tolerated] ?? 0) + 1;
        }
        for (const f of verdict.failures) {
          const rid = res.headers['x-request-id'];
          failures.push({
            ...(res.status >= 500 && rid
              ? { serverLog: errorLogs.forRequest(rid).map((l) => clip(l, 3000)) }
              : {}),
            n,
            ...f,
            status: res.status,
            response: clip(res.body.toString('utf8'), 800),
            request: describeCase(c, P, sent),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    ran = true;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);

    // Distinct failures: one example per reason, route and status.
    const groups = new Map<string, { count: number; example: (typeof failures)[number] }>();
    for (const f of failures) {
      const k = `${f.reason} | ${f.request.route as string} | ${f.status}`;
      const g = groups.get(k);
      if (g) {
        g.count++;
      } else {
        groups.set(k, { count: 1, example: f });
      }
    }
    const summary = {
      seed: SEED,
      cases: numbers.length,
      seconds,
      statuses,
      tolerated,
      failures: failures.length,
      distinct: groups.size,
      slow: slow.slice(0, 10),
      largeErrorBodies: bigErrors.slice(0, 10),
    };
    if (process.env.HOSTILE_REPORT) {
      writeFileSync(
        process.env.HOSTILE_REPORT,
        JSON.stringify(
          {
            summary,
            perRoute: routeStatuses,
            perTag: tagStatuses,
            groups: [...groups.entries()].map(([k, v]) => ({ key: k, ...v })),
            failures,
          },
          null,
          2,
        ),
      );
    }
    if (failures.length) {
      const shown = [...groups.entries()]
        // Server errors first, then the most frequent.
        .sort(
          (x, y) =>
            Number(y[0].startsWith('5xx')) - Number(x[0].startsWith('5xx')) || y[1].count - x[1].count,
        )
        .slice(0, 40)
        .map(([k, v]) => ({
          group: k,
          count: v.count,
          detail: clip(v.example.detail, 300),
          response: v.example.response,
          request: v.example.request,
          ...(v.example.serverLog ? { serverLog: v.example.serverLog } : {}),
        }));
      throw new Error(
        `${failures.length} failures in ${numbers.length} hostile requests (${groups.size} distinct): ${JSON.stringify(summary)}\n` +
          JSON.stringify(shown, null, 2),
      );
    }
    if (!ONLY) {
      // Every route was exercised, and the mix reached past validation as well as being refused.
      const underCovered = routes
        .map((r) => `${r.method} ${r.path}`)
        .filter((key) => (perRoute.get(key) ?? 0) < 10);
      expect(underCovered).toEqual([]);
      const ok = Object.entries(statuses)
        .filter(([s]) => Number(s) < 300)
        .reduce((s, [, v]) => s + v, 0);
      expect(ok).toBeGreaterThan(numbers.length * 0.05);
    }
  }, 240_000);

  it('leaves what no request could change legitimately as it was, and every caller still signed in', async () => {
    if (!ran) {
      return;
    }
    const after = await snapshot();
    const changed: string[] = [];
    let compared = 0;
    const same = (table: string, id: string, ignore: string[] = []) => {
      const strip = (row: Record<string, unknown> | undefined) =>
        row && Object.fromEntries(Object.entries(row).filter(([k]) => !ignore.includes(k)));
      compared++;
      const x = strip(before[table]?.[id]);
      const y = strip(after[table]?.[id]);
      if (JSON.stringify(x) !== JSON.stringify(y)) {
        changed.push(
          `${table} ${id}: ${clip(JSON.stringify(x), 600)} -> ${clip(JSON.stringify(y ?? '(gone)'), 600)}`,
        );
      }
    };
    // A login (by any caller, any outcome) moves these; a user-field change may rewrite custom.
    const volatileUserColumns = [
      'failed_login_count',
      'locked_until',
      'last_login_at',
      'updated_at',
      ...(touchedAll.has('userFields') ? ['custom'] : []),
    ];
    // Sentinels: never named by any request.
    for (const id of vaultIds) {
      same('c_vault', id);
    }
    for (const id of Object.keys(before.s_notice)) {
      same('s_notice', id);
    }
    same('users', sentinelUser.id, touchedAll.has('userFields') ? ['custom'] : []);
    same('roles', sentinelRoleId);
    same('email_templates', sentinelTemplateId);
    // Protected: only unprivileged cases named them.
    for (const [table, id] of protectedRows) {
      same(
        table,
        id,
        {
          users: volatileUserColumns,
          api_keys: ['last_used_at'],
          user_fields: touchedAll.has('userFields') ? ['order', 'updated_at'] : [],
        }[table],
      );
    }
    // Pool resources no successful write named.
    for (const id of P.kinds.user.main) {
      if (!touched.has(id)) {
        same('users', id, volatileUserColumns);
      }
    }
    for (const [table, kind] of [
      ['roles', 'role'],
      ['permissions', 'permission'],
      ['email_templates', 'template'],
      ['api_keys', 'apiKey'],
    ] as const) {
      for (const id of P.kinds[kind].main) {
        if (!touched.has(id)) {
          same(table, id, ['last_used_at']);
        }
      }
    }
    if (!touchedAll.has('providers')) {
      P.kinds.provider.main.forEach((id) => same('email_providers', id));
    }
    if (!touchedAll.has('userFields')) {
      P.kinds.userField.main.forEach((id) => same('user_fields', id));
    }
    for (const slug of ['authors', 'articles', 'pages']) {
      if (!touchedAll.has(slug)) {
        P.entries[slug].main.filter((id) => !touched.has(id)).forEach((id) => same(`c_${slug}`, id));
      }
    }
    if (!touchedAll.has('site')) {
      Object.keys(before.s_site).forEach((id) => same('s_site', id));
    }

    // The vault reads back over HTTP as it was written.
    const admin = { Authorization: callerAuth.superAdmin! };
    const vault = await t.http.get(`${API}/collections/vault/entries?status=all&sort=n&limit=10`).set(admin);
    expect(vault.status).toBe(200);
    expect(
      (vault.body.items as Array<Record<string, unknown>>)
        .map((e) => ({ secret: e.secret, n: e.n, data: e.data }))
        .sort((x, y) => String(x.secret).localeCompare(String(y.secret))),
    ).toEqual([
      { secret: 'keep-1', n: 1, data: { a: [1, 2] } },
      { secret: 'keep-2', n: 2, data: null },
      { secret: 'keep-3', n: null, data: null },
    ]);
    const notice = await t.http.get(`${API}/singles/notice`).set(admin);
    expect({ status: notice.status, text: notice.body.text }).toEqual({ status: 200, text: 'keep me' });

    // The app runs in this process: no prototype-pollution key reached Object.prototype.
    expect(['polluted', 'isSuperAdmin', 'x', 'admin'].filter((k) => k in {})).toEqual([]);

    // The bearer callers were never named by the generator: still signed in.
    for (const who of ['superAdmin', 'lowPrivilege', 'apiKey'] as const) {
      const me = await t.http.get(`${API}/me/permissions`).set({ Authorization: callerAuth[who]! });
      expect({ who, status: me.status }).toEqual({ who, status: 200 });
    }
    expect({ compared, changed }).toEqual({ compared, changed: [] });
    if (compared <= 10) {
      throw new Error(
        `only ${compared} rows compared: touched ${[...touched].join(' ')}; whole tables ${[...touchedAll].join(' ')}`,
      );
    }
  });

  it('answers requests Node itself refuses (oversized head, raw bytes) in the problem envelope too', async () => {
    const cases: Array<
      [string, { method: string; target: string | Buffer; headers: Array<[string, string | Buffer]> }]
    > = [
      [
        'header over 16 KiB',
        { method: 'GET', target: `${API}/me`, headers: [['X-Padding', 'a'.repeat(17_000)]] },
      ],
      [
        'many headers',
        {
          method: 'GET',
          target: '/api/health',
          headers: Array.from({ length: 2500 }, (_, i) => [`X-H${i}`, 'v'] as [string, string]),
        },
      ],
      [
        'raw UTF-8 in the path',
        { method: 'GET', target: Buffer.from(`${API}/collections/日本/entries`), headers: [] },
      ],
      [
        'NUL byte in a header',
        { method: 'GET', target: `${API}/me`, headers: [['X-Request-Id', Buffer.from([0x61, 0x00, 0x62])]] },
      ],
      [
        'bare CR in a header',
        { method: 'GET', target: `${API}/me`, headers: [['X-Request-Id', Buffer.from('a\rb')]] },
      ],
      ['space in the path', { method: 'GET', target: `${API}/users/a b`, headers: [] }],
      [
        'request line over 16 KiB',
        { method: 'GET', target: `${API}/users?${'q'.repeat(17_000)}`, headers: [] },
      ],
    ];
    const failures: Array<Record<string, unknown>> = [];
    for (const [name, req] of cases) {
      try {
        const res = await sendRaw(port, req, 10_000);
        const c = { n: -1, method: req.method, target: '', plain: '', tags: [] } as unknown as Case;
        const { failures: fs } = check(c, res);
        if (res.status < 400) {
          fs.push({ reason: 'accepted', detail: String(res.status) });
        }
        if (fs.length) {
          failures.push({
            name,
            status: res.status,
            headers: res.headers,
            body: clip(res.body.toString('utf8'), 300),
            failures: fs,
          });
        }
      } catch (e) {
        failures.push({ name, error: (e as Error).message });
      }
    }
    expect(failures).toEqual([]);
  });
});
