// Writes docs/configuration.md from the code: the environment variables the code reads, the keys of
// the config file (`SvcConfig`) and of the module options (`SvcModuleOptions`), with their types and
// defaults taken from the sources. Only the descriptions live here, keyed by name: a name the code
// has and this file does not (or the other way round) stops the script, and a test regenerates the
// page and fails when the committed one differs.
//
//   node scripts/docs-config.mjs           writes docs/configuration.md
//   node scripts/docs-config.mjs --stdout  prints it instead
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJiti } from 'jiti';
import * as prettier from 'prettier';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'docs', 'configuration.md');

/** Environment variables. `default` only where the code's default is not an `int()`/`bool()` fallback. */
const ENV = {
  PORT: { default: '`3000`', text: 'HTTP port.' },
  HOST: { default: '`0.0.0.0`', text: 'Address to listen on.' },
  NODE_ENV: {
    default: '`development`',
    text: '`production` requires `SVC_SECRET` and `NEXT_PUBLIC_APP_URL`, logs JSON lines and turns Swagger UI off (see `SVC_API_DOCS`); `test` makes the default log level `silent`.',
  },
  DATABASE_URL: {
    default: 'unset',
    text: '`postgres://` URL of the database (PostgreSQL 13 or later). Unset: the embedded PostgreSQL, with its files in `SVC_DATA_DIR`.',
  },
  SVC_DATA_DIR: {
    default: '`./.svc`',
    text: 'The embedded database files, the generated development secret and, unless `SVC_MEDIA_DIR` says otherwise, media files.',
  },
  SVC_EMBEDDED_PG_PORT: {
    text: 'Port of the embedded PostgreSQL (it listens on 127.0.0.1 only). Unset and taken (say by the service of another checkout): a free port is picked and logged. Set and taken: the boot stops with a message.',
  },
  SVC_AUTO_MIGRATE: {
    text: 'Run pending migrations at boot (several instances booting together migrate once, under an advisory lock). `false`: run `npm run migrate` yourself.',
  },
  SVC_DB_POOL: { text: 'Database connection pool size.' },
  SVC_DB_PREPARED_STATEMENTS: {
    text: 'Content reads as named prepared statements (parsed once per connection). `false` behind a transaction-mode pooler (PgBouncer before 1.21).',
  },
  SVC_DB_STATEMENT_TIMEOUT_MS: {
    text: 'Longest a request’s database statement may run; `0` turns the limit off. Past it the request answers `503 SERVICE_UNAVAILABLE` with `Retry-After`. Migrations and schema applies are not bound by it.',
  },
  SVC_RATE_LIMIT_MAX_KEYS: {
    text: 'Without Redis: rate-limit counters each budget keeps in memory (about 20 MB at the default); past it the least recently seen client’s counter is forgotten, so that client starts a new window. See [authentication](authentication.md#rate-limits).',
  },
  SVC_HEAP_GROWING_PERCENT: {
    text: 'How far the heap may grow past what the last full garbage collection kept before the next one, in percent (`0`: V8’s own factor, up to 4 times). Keeps a busy server’s memory near its live data; see [performance](performance.md). Standalone server only.',
  },
  SVC_REDIS_PREFIX: {
    default: '`svc:`',
    text: 'The prefix of every Redis key the service writes, so that deployments can share one Redis (instances of one deployment must share the prefix).',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    default: 'unset',
    text: 'OpenTelemetry’s own: set (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), the standalone server traces requests, Express and Nest, PostgreSQL, Redis and outgoing calls, and exports the spans over OTLP/HTTP to it; the other `OTEL_*` variables apply. Unset: nothing of it is loaded. See [operations](operations.md).',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    default: 'unset',
    text: 'OpenTelemetry’s own: the traces endpoint alone (full URL, `.../v1/traces`); turns tracing on like `OTEL_EXPORTER_OTLP_ENDPOINT`.',
  },
  OTEL_SDK_DISABLED: {
    default: 'unset',
    text: 'OpenTelemetry’s own: `true` turns tracing off whatever the endpoint variables say.',
  },
  OTEL_SERVICE_NAME: {
    default: '`svc`',
    text: 'OpenTelemetry’s own: the `service.name` of the spans.',
  },
  SVC_METRICS_TOKEN: {
    default: 'unset',
    text: 'Turns on `GET /api/metrics` (the Prometheus text format), answered only to `Authorization: Bearer <this token>`; at least 32 characters (shorter stops the boot). Unset: the route answers 404 and no request is measured. See [operations](operations.md).',
  },
  SVC_DRAIN_SECONDS: {
    text: 'After `SIGTERM`, how long the server keeps serving while `GET /api/health` answers `503` with `draining: true`, so a load balancer moves traffic away; then it stops accepting connections, finishes the requests in flight and exits 0. `SIGINT` (Ctrl-C) stops at once. See [operations](operations.md). Standalone server only.',
  },
  NODE_OPTIONS: {
    default: 'unset',
    text: 'Node’s own. A `--heap-growing-percent` given there (or on the `node` command line) wins over `SVC_HEAP_GROWING_PERCENT`, and an `--allocation-site-pretenuring` over the standalone server’s `--no-allocation-site-pretenuring` (see [performance](performance.md)). An application embedding the module should run node with the latter.',
  },
  SVC_COUNT_CACHE_MS: {
    default: '`2000`',
    text: 'How long a content list’s cached `meta.total` may be used when the write that changed it was made by another instance or outside the service (writes on this instance clear it at once). A whole number of milliseconds; `0` turns the cache off.',
  },
  SVC_HEADERS_TIMEOUT_MS: {
    text: 'Request headers must arrive within this, else `408`. Not larger than `SVC_REQUEST_TIMEOUT_MS`.',
  },
  SVC_IDLE_TIMEOUT_MS: { text: 'A connection that sends nothing this long (a stalled body) is closed.' },
  SVC_REQUEST_TIMEOUT_MS: { text: 'A whole request (headers and body) must arrive within this, else `408`.' },
  SVC_KEEP_ALIVE_TIMEOUT_MS: { text: 'An idle keep-alive connection is closed after this.' },
  SVC_SECRET: {
    default: 'generated',
    text: 'Signing and encryption secret, at least 32 characters. Required in production. Elsewhere a random one is generated once and kept in `SVC_DATA_DIR/secret`. Changing it signs everyone out and makes stored email-provider passwords and TOTP secrets unreadable.',
  },
  NEXT_PUBLIC_APP_URL: {
    default: '`http://localhost:${PORT}`',
    text: 'Public URL of the deployment: the base of emailed links, and an allowed origin for CSRF and CORS. Required in production; cookies are `Secure` when it is `https`.',
  },
  SVC_ALLOWED_ORIGINS: {
    default: 'empty',
    text: 'More allowed origins for CSRF and CORS (credentials allowed), comma-separated. Scripts there can read `X-Request-Id`, `Retry-After`, `X-RateLimit-*`, `Content-Range`, `Content-Disposition` and `ETag`.',
  },
  REDIS_URL: {
    default: 'unset',
    text: '`redis://` or `rediss://` URL. When set, rate-limit counters are shared by every instance; see [operations](operations.md#redis) for what happens while Redis is down.',
  },
  SVC_CONFIG: {
    default: '`./svc.config.ts` when present',
    text: 'The config file (`.ts`, `.js`, `.mjs` or `.cjs`), loaded without a build step.',
  },
  SVC_LOG_LEVEL: {
    default: '`info` (`silent` under `NODE_ENV=test`)',
    text: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. `warn` turns the per-request lines off and keeps the 5xx ones; `debug` also lists every mapped route at boot.',
  },
  SVC_API_DOCS: {
    text: 'Swagger UI at `/admin/api/docs`. The OpenAPI document at `/admin/api/openapi.json` is served either way.',
  },
  SVC_PAGES: {
    text: 'The admin app under `/admin` (sign-in, password reset, email verification, invitations, the account, the content screens). `false` for a host application that serves its own.',
  },
  SVC_SCHEMA_ACCEPT_DESTRUCTIVE: {
    default: '`false`',
    text: '`true` lets the boot carry out destructive changes of code-defined collections and singles (a dropped field, a narrowed type, a removed collection). Otherwise such a change stops the boot, naming it.',
  },
  SVC_MEDIA_DIR: {
    default: '`${SVC_DATA_DIR}/media`',
    text: 'Where uploaded files are stored (local storage), and their temporary files while they upload (`.tmp` inside), also with S3.',
  },
  SVC_UPLOAD_MAX_BYTES: {
    text: 'Largest file an upload may carry (the default is 10 MiB); past it `413 PAYLOAD_TOO_LARGE`, decided while the file streams in.',
  },
  SVC_UPLOAD_TYPES: {
    default: 'images, PDF, text, CSV, audio, video',
    text: 'Types an upload may be stored as, comma-separated: `type/subtype` or `type/*`. The type comes from the file’s bytes; the default list is in [media](media.md).',
  },
  SVC_MEDIA_PUBLIC: {
    text: '`true` opens the media `read` rule to visitors: files and media entries readable without credentials, cached as immutable.',
  },
  SVC_S3_BUCKET: {
    default: 'unset',
    text: 'Store media in this S3-compatible bucket instead of `SVC_MEDIA_DIR`; credentials from the usual `AWS_*` variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, or the SDK’s other sources).',
  },
  SVC_S3_ENDPOINT: {
    default: 'unset',
    text: 'URL of an S3-compatible server (MinIO, R2, ...); path-style addressing is used with it. Unset: AWS S3. Needs `SVC_S3_BUCKET`.',
  },
  SVC_S3_REGION: {
    default: '`AWS_REGION`, else `us-east-1`',
    text: 'Region of the bucket. Needs `SVC_S3_BUCKET`.',
  },
  AWS_REGION: { default: 'unset', text: 'The AWS SDK’s region, used when `SVC_S3_REGION` is not set.' },
};

/** Keys of the config file (`defineConfig({...})`). Defaults come from `resolveConfig({})`. */
const CONFIG = {
  collections: {
    text: 'Code-defined collections: real tables, one typed column per field, synchronised at every boot. See [content](content.md).',
  },
  singles: { text: 'Code-defined singles: one document each. See [content](content.md).' },
  'users.fields': {
    text: 'Custom user fields, on the user record and on the session user. See [access control](access-control.md#users-and-custom-user-fields).',
  },
  'auth.requireEmailVerification': { text: 'Sign-in needs a verified address.' },
  'auth.revealRegistrationConflict': {
    text: '`false`: registering a taken address answers exactly like a new one.',
  },
  'auth.strategies': {
    text: 'App-level credential checkers `{ name, authenticate({ email, password, request }) }`, run by `POST /auth/login` before the password strategy. See [plugins](plugins.md#app-level-strategies).',
  },
  'auth.maxSessions': {
    default: 'unlimited',
    text: 'Live sessions per user; a sign-in beyond it ends the least recently used. A positive integer, or `null` for no limit.',
  },
  'auth.auditRetentionDays': {
    text: 'Days an audit row is kept (a positive integer); older rows are purged hourly.',
  },
  'auth.mfa.requiredForRoles': {
    text: 'Role slugs whose holders must have a second factor (needs `totpPlugin()` or `passkeyPlugin()`). See [authentication](authentication.md#a-second-factor-required-by-role).',
  },
  'auth.mfa.requiredForAll': { text: 'Every user must have a second factor.' },
  'auth.reauthWindowSeconds': {
    text: 'How long signing in (or `POST /auth/reauthenticate`) opens sensitive changes: passkeys, TOTP, API keys, ending your other sessions. 1 to 86,400.',
  },
  'apiKeys.rateLimit': { text: 'Per-key budget of requests made with an API key.' },
  'security.authRateLimit': {
    text: 'Per-IP budget shared by the sign-in and account routes (login, register, password reset, ...). Raise it for development; keep it low in production.',
  },
  rateLimit: {
    text: 'Global per-IP limit. `skip(req)` decides which requests it ignores; the default skips everything under `/admin/api/` (those routes have their own budgets).',
  },
  trustProxy: {
    text: 'Express “trust proxy”: `true`, a number of hops, or a list of addresses or subnets. Decides the client IP that rate limits, audit rows and logs see.',
  },
  plugins: {
    text: 'Plugins (second factors, external sign-in, forms...), checked at boot. See [plugins](plugins.md).',
  },
  'webhooks.allowPrivateNetworks': {
    text: '`true` lets webhook endpoints be on private, loopback and link-local addresses, which are otherwise refused at create (an address in the URL) and at every attempt (after DNS). See [webhooks](webhooks.md#safety).',
  },
  'webhooks.retry.attempts': {
    text: 'Attempts per webhook delivery, the first included (1 to 25); then the delivery is `failed`.',
  },
  'webhooks.retry.baseDelayMs': {
    text: 'After the n-th failed attempt the next comes `baseDelayMs * 2^(n-1)` later, ±20%, at most 6 hours apart.',
  },
  'webhooks.disableAfterFailures': {
    text: 'Webhook deliveries failed in a row that disable their endpoint (a `410 Gone` answer disables it at once).',
  },
  'webhooks.timeoutMs': {
    text: 'How long one webhook attempt may take, connecting and reading the answer included (at most 15,000); past it the attempt failed.',
  },
};

/** Options of `SvcModule.forRoot()` / `forRootAsync()` when the service runs inside a host Nest app. */
const MODULE = {
  secret: {
    default: 'required',
    text: 'Signing and encryption secret (at least 32 characters in production).',
  },
  'database.url': {
    default: 'required',
    text: 'PostgreSQL URL. Instead of `url`/`poolSize`, `database` may hold TypeORM PostgreSQL connection options (`host`, `port`, `username`, ...).',
  },
  'database.poolSize': { default: '`10`', text: 'Connection pool size (with `url`).' },
  'database.autoMigrate': { default: '`true`', text: 'Run pending migrations at start.' },
  'database.preparedStatements': {
    default: '`true`',
    text: 'Content reads as named prepared statements; `false` behind a transaction-mode pooler.',
  },
  'database.statementTimeoutMs': {
    default: '`10000`',
    text: 'PostgreSQL `statement_timeout` of request statements; `0` turns it off.',
  },
  config: { default: '`{}`', text: 'The config object: every key of [the config file](#config-file).' },
  publicUrl: {
    default: '`http://localhost:3000`',
    text: 'Public URL of the deployment (emailed links, CSRF origin).',
  },
  selfOrigin: {
    default: 'unset',
    text: 'The origin the server listens on, accepted by the CSRF origin check.',
  },
  allowedOrigins: { default: '`[]`', text: 'More allowed origins for CSRF and CORS.' },
  redisUrl: { default: 'unset', text: 'Redis for shared rate-limit counters.' },
  redisPrefix: {
    default: '`svc:`',
    text: 'Prefix of every Redis key the service writes, so deployments can share a Redis.',
  },
  rateLimitMaxKeys: { default: '`100000`', text: 'Without Redis: rate-limit counters kept per budget.' },
  production: {
    default: '`NODE_ENV === "production"`',
    text: 'Production behaviour (JSON logs, no Swagger UI).',
  },
  standalone: {
    default: '`false`',
    text: 'The service owns every path (unknown routes answer problem+json). Leave it off in a host application, whose routes keep Nest’s behaviour.',
  },
  'logger.level': { default: '`info`', text: 'Log level, as `SVC_LOG_LEVEL`.' },
  'logger.pretty': { default: '`false`', text: 'One readable line per record instead of JSON.' },
  'logger.stream': { default: 'standard output', text: 'Where log records go (a pino destination).' },
  acceptDestructiveSchema: {
    default: '`SVC_SCHEMA_ACCEPT_DESTRUCTIVE`',
    text: 'Let the boot-time sync of code-defined collections and singles carry out destructive changes.',
  },
  'media.dir': { default: '`./.svc/media`', text: 'Local storage root, as `SVC_MEDIA_DIR`.' },
  'media.tmpDir': { default: '`<dir>/.tmp`', text: 'Where uploads are streamed before they are stored.' },
  'media.maxBytes': { default: '10 MiB', text: 'Largest file accepted, as `SVC_UPLOAD_MAX_BYTES`.' },
  'media.types': { default: 'as `SVC_UPLOAD_TYPES`', text: 'Allowed types, `type/subtype` or `type/*`.' },
  'media.public': { default: '`false`', text: 'Media readable by anyone, as `SVC_MEDIA_PUBLIC`.' },
  'media.s3.bucket': {
    default: 'unset',
    text: 'Store files in this S3-compatible bucket (`media.s3` null: local).',
  },
  'media.s3.endpoint': {
    default: 'unset',
    text: 'An S3-compatible server’s URL (path-style addressing then).',
  },
  'media.s3.region': {
    default: '`SVC_S3_REGION`, `AWS_REGION`, else `us-east-1`',
    text: 'Region of the bucket.',
  },
  'media.s3.forcePathStyle': { default: '`true` with `endpoint`', text: 'Path-style addressing.' },
  'media.s3.credentials.accessKeyId': {
    default: 'the SDK’s chain',
    text: 'Access key (with `secretAccessKey`).',
  },
  'media.s3.credentials.secretAccessKey': { default: 'the SDK’s chain', text: 'Secret key.' },
  'media.s3.credentials.sessionToken': { default: 'unset', text: 'Session token of temporary credentials.' },
  'media.s3.prefix': { default: '`media/`', text: 'Key prefix: objects are `<prefix><id>/<filename>`.' },
  'media.variantConcurrency': { default: '`2`', text: 'Image sizes made at once by this process (1 to 64).' },
  pages: {
    default: '`SVC_PAGES`, else `true`',
    text: 'The admin app under `/admin`. With `forRoot`, `false` leaves its routes unregistered; with `forRootAsync` they answer 404.',
  },
  metricsToken: {
    default: '`SVC_METRICS_TOKEN` in the standalone server, else unset',
    text: 'Turns on `GET /api/metrics` for `Authorization: Bearer <this token>` (32 characters or more). Unset: 404, and no request is measured.',
  },
};

// ---------------------------------------------------------------------------------------------
// Reading the sources.

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      return sourceFiles(path);
    }
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function parse(path) {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
}

function walk(node, visit) {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

const ENV_OBJECTS = new Set(['process.env', 'source']);
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * Every environment variable the code under src/ reads: `process.env.X`, `process.env[CONST]`,
 * `source.X` (the `NodeJS.ProcessEnv` the boot passes around) and the `int('X')`/`bool('X')` readers
 * of env.ts, with their fallbacks and ranges.
 */
export function envReads() {
  const reads = new Map();
  const add = (name, file, info = {}) => {
    if (ENV_NAME.test(name)) {
      reads.set(name, {
        files: [...(reads.get(name)?.files ?? []), relative(root, file)],
        ...reads.get(name),
        ...info,
      });
    }
  };
  for (const file of sourceFiles(join(root, 'src'))) {
    const sf = parse(file);
    const constants = new Map();
    walk(sf, (n) => {
      if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        ts.isStringLiteral(n.initializer)
      ) {
        constants.set(n.name.text, n.initializer.text);
      }
    });
    walk(sf, (n) => {
      if (ts.isPropertyAccessExpression(n) && ENV_OBJECTS.has(n.expression.getText(sf))) {
        add(n.name.text, file);
      } else if (ts.isElementAccessExpression(n) && ENV_OBJECTS.has(n.expression.getText(sf))) {
        const arg = n.argumentExpression;
        if (ts.isStringLiteral(arg)) {
          add(arg.text, file);
        } else if (ts.isIdentifier(arg) && constants.has(arg.text)) {
          add(constants.get(arg.text), file);
        }
      } else if (
        ts.isCallExpression(n) &&
        ts.isIdentifier(n.expression) &&
        ['int', 'bool'].includes(n.expression.text) &&
        n.arguments[0] &&
        ts.isStringLiteral(n.arguments[0])
      ) {
        add(n.arguments[0].text, file, {
          kind: n.expression.text,
          args: n.arguments.slice(1).map((a) => a.getText(sf)),
        });
      }
    });
  }
  return reads;
}

/** Property paths of an interface, descending into inline object types and the listed named types. */
function interfacePaths(files, start, expand) {
  const decls = new Map();
  for (const file of files) {
    walk(parse(join(root, file)), (n) => {
      if ((ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n)) && !decls.has(n.name.text)) {
        decls.set(n.name.text, n);
      }
    });
  }
  const membersOf = (type) => {
    if (!type) {
      return null;
    }
    if (ts.isParenthesizedTypeNode(type)) {
      return membersOf(type.type);
    }
    if (ts.isTypeLiteralNode(type)) {
      return [...type.members];
    }
    if (ts.isTypeReferenceNode(type) && expand.includes(type.typeName.getText())) {
      const decl = decls.get(type.typeName.getText());
      return ts.isInterfaceDeclaration(decl) ? [...decl.members] : membersOf(decl.type);
    }
    if (ts.isIntersectionTypeNode(type)) {
      const parts = type.types.map(membersOf);
      return parts.every(Boolean) ? parts.flat() : null;
    }
    if (ts.isUnionTypeNode(type)) {
      const parts = type.types.map(membersOf).filter(Boolean);
      return parts.length ? parts.flat() : null;
    }
    return null;
  };
  const out = new Map();
  const visit = (members, prefix) => {
    for (const m of members) {
      if (!ts.isPropertySignature(m) && !ts.isMethodSignature(m)) {
        continue;
      }
      const path = prefix + m.name.getText();
      const inner = ts.isPropertySignature(m) ? membersOf(m.type) : null;
      if (inner) {
        visit(inner, `${path}.`);
      } else if (!out.has(path)) {
        out.set(path, {
          type: m.type ? m.type.getText().replace(/\s+/g, ' ') : 'function',
          optional: !!m.questionToken,
        });
      }
    }
  };
  visit(decls.get(start).members, '');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rendering.

const code = (v) => `\`${v}\``;
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function show(value) {
  if (typeof value === 'function') {
    return null;
  }
  if (value === null || value === undefined) {
    return 'none';
  }
  if (Array.isArray(value) && value.length === 0) {
    return code('[]');
  }
  if (typeof value === 'object') {
    const parts = Object.entries(value).map(([k, v]) =>
      typeof v === 'function' ? k : `${k}: ${JSON.stringify(v)}`,
    );
    return code(`{ ${parts.join(', ')} }`);
  }
  return code(JSON.stringify(value));
}

function checkKeys(kind, found, described) {
  const missing = found.filter((k) => !(k in described));
  const unknown = Object.keys(described).filter((k) => !found.includes(k));
  const problems = [
    ...missing.map(
      (k) => `${kind} "${k}" is read by the code but has no description in scripts/docs-config.mjs`,
    ),
    ...unknown.map(
      (k) => `${kind} "${k}" is described in scripts/docs-config.mjs but the code does not have it`,
    ),
  ];
  if (problems.length) {
    throw new Error(problems.join('\n'));
  }
}

function envTable(jiti) {
  const reads = envReads();
  const names = [...reads.keys()];
  checkKeys('environment variable', names, ENV);
  const scope = {
    ...jiti(join(root, 'src/config/env.ts')),
    ...jiti(join(root, 'src/config/media-options.ts')),
  };
  const evaluate = (expr, production) =>
    new Function(...Object.keys(scope), 'production', `return (${expr});`)(
      ...Object.values(scope),
      production,
    );
  const rows = Object.keys(ENV).map((name) => {
    const read = reads.get(name);
    let def = ENV[name].default;
    let range = '';
    if (read.kind === 'int') {
      const [fallback, min, max] = read.args.map((a) => evaluate(a, false));
      def ??= code(fallback);
      range = ` An integer from ${min} to ${max}.`;
    } else if (read.kind === 'bool') {
      const dev = evaluate(read.args[0], false);
      const prod = evaluate(read.args[0], true);
      def ??= dev === prod ? code(dev) : `${code(dev)} (${code(prod)} in production)`;
      range = ' `true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`).';
    }
    if (def === undefined) {
      throw new Error(`environment variable ${name}: no default in the code or in scripts/docs-config.mjs`);
    }
    return `| ${code(name)} | ${cell(def)} | ${cell(ENV[name].text + range)} |`;
  });
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

function configTable(jiti) {
  const paths = interfacePaths(['src/config/config.types.ts'], 'SvcConfig', []);
  checkKeys('config key', [...paths.keys()], CONFIG);
  const resolved = jiti(join(root, 'src/config/config-file.ts')).resolveConfig({});
  const rows = Object.keys(CONFIG).map((key) => {
    const value = key.split('.').reduce((o, k) => o?.[k], resolved);
    const def = CONFIG[key].default ?? show(value);
    return `| ${code(key)} | ${cell(code(paths.get(key).type))} | ${cell(def)} | ${cell(CONFIG[key].text)} |`;
  });
  return ['| Key | Type | Default | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

function moduleTable() {
  const paths = interfacePaths(
    ['src/config/svc-options.ts', 'src/config/media-options.ts', 'src/database/data-source.ts'],
    'SvcModuleOptions',
    ['DatabaseConfig', 'ServiceDatabaseOptions', 'MediaOptions', 'S3MediaOptions'],
  );
  checkKeys('module option', [...paths.keys()], MODULE);
  const rows = Object.keys(MODULE).map((key) => {
    const { type } = paths.get(key);
    return `| ${code(key)} | ${cell(code(type))} | ${cell(MODULE[key].default)} | ${cell(MODULE[key].text)} |`;
  });
  return ['| Option | Type | Default | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The page, formatted as `prettier --write` would leave it. */
export async function renderConfigurationDoc() {
  const jiti = createJiti(import.meta.url, { moduleCache: false, fsCache: false });
  const text = `# Configuration

<!-- Generated by \`npm run docs:config\` (scripts/docs-config.mjs) from the code. Do not edit: change the descriptions in the script. -->

The service reads its settings from three places:

- **Environment variables**, read by the standalone server (\`npm start\`, the Docker image). A bad
  value stops the boot with one message listing every problem, each naming its variable.
- **The config file**, \`svc.config.ts\` in the working directory (or the file \`SVC_CONFIG\` names):
  \`export default defineConfig({ ... })\` with \`import { defineConfig } from 'svc'\`. Every key is
  optional; [svc.config.ts](../svc.config.ts) in this repository shows them with their defaults.
  It is read at boot: restart after a change. An unknown key or a bad value stops the boot.
- **Module options**, when the service runs inside your own Nest application
  (\`SvcModule.forRoot(options)\`, or \`forRootAsync({ imports, inject, useFactory })\`). There the
  environment is not read for these settings (except where a default below names a variable): the
  host passes them.

## Environment variables

${envTable(jiti)}

## Config file

${configTable(jiti)}

A rate limit is \`{ max, windowSeconds }\` with positive integers. What each budget covers, and the
headers and answers past it, are in [authentication](authentication.md#rate-limits).

## Module options

${moduleTable()}
`;
  const options = (await prettier.resolveConfig(OUT)) ?? {};
  return prettier.format(text, { ...options, filepath: OUT });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = await renderConfigurationDoc();
  if (process.argv.includes('--stdout')) {
    process.stdout.write(doc);
  } else {
    writeFileSync(OUT, doc);
    console.log(`wrote ${relative(root, OUT)}`);
  }
}
