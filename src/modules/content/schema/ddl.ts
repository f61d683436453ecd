/**
 * PostgreSQL DDL for content tables: the CREATE of a collection's table and the statements that
 * carry out planned changes (plan.ts). Pure string building; the applier runs the statements, in
 * order, in one transaction. Every identifier is double-quoted (field names are case-sensitive
 * columns: `"publishedAt"`), every literal escaped; the names come from validated definitions.
 *
 * Field type -> storage:
 *
 * | field                    | column                          | constraint / index                              |
 * |--------------------------|---------------------------------|-------------------------------------------------|
 * | text, textarea, email    | text                            |                                                 |
 * | number                   | double precision                |                                                 |
 * | checkbox                 | boolean                         |                                                 |
 * | date                     | timestamptz                     |                                                 |
 * | select                   | text                            | CHECK ("f" IN (options))                        |
 * | select, hasMany          | text[]                          | CHECK ("f" <@ ARRAY[options]); index is GIN     |
 * | json, richText           | jsonb                           | index (json only) is GIN                        |
 * | component                | jsonb (an array if repeatable)  |                                                 |
 * | relationship, upload     | uuid                            | FK -> target(id) ON DELETE SET NULL; always     |
 * |                          |                                 | indexed (unique index if unique)                |
 * | relationship, hasMany    | join table c_<slug>__<field>:   | PK (owner_id, position); FKs ON DELETE CASCADE; |
 * |                          | owner_id, target_id, position   | index on target_id                              |
 *
 * Decisions:
 * - System columns: `id uuid` (gen_random_uuid(), PostgreSQL 13+), `created_at`, `updated_at`
 *   (timestamptz, default now()), and with drafts `status text NOT NULL DEFAULT 'draft'` with a
 *   CHECK (draft | published). `created_at` is indexed: it is the natural default order.
 * - `required` is never NOT NULL: it is enforced by entry validation. A NOT NULL column could not
 *   be added to (or turned on for) a table that holds rows without inventing values, drafts may
 *   be incomplete, and required on/off then never rewrites or fails (plan.ts: not destructive).
 * - `email` has no CHECK: the entry validator's rule is the one rule (a regex in the database
 *   would drift from it and turn a rule change into a migration).
 * - `number` is double precision: exactly a JSON/JavaScript number, read back as a number.
 * - `defaultValue` becomes the column DEFAULT (the value validation accepted, cleaned), so adding
 *   a field with a default to a table that holds rows gives those rows the default too. A
 *   date-only default is midnight UTC.
 * - `index` and `unique` together make one unique index. A single relationship/upload column is
 *   indexed whatever `index` says; a hasMany relationship is indexed by its join table.
 * - The index of a sortable column (text, textarea, email, number, checkbox, date, single select)
 *   is on (field, id), and `created_at`'s on (created_at, id): lists order by the field and then
 *   `id` as the tiebreaker (query/compile.ts), so such an index serves `ORDER BY f DESC, id DESC
 *   LIMIT n` (or ASC) with a filter on `f` as one index scan that stops after n rows. On (f) alone
 *   PostgreSQL reads every matching row and sorts them (a million-row list spent its time there).
 *   Tables made before that get their indexes replaced by the boot sync (`indexUpgradeDdl`). A
 *   unique index stays on (f): equal keys, the only ones the tiebreaker orders, are one row each
 *   (NULLs aside), so PostgreSQL's incremental sort over it handles groups of one.
 * - Index and constraint names are `<table>-<field>-idx`, `-key` (unique), `-check`, `-fkey`,
 *   `<table>-pkey`, `<join table>-pkey`, `<join table>-target-idx`, and `owner-fkey` /
 *   `target-fkey` on a join table. The hyphen cannot occur in a table or field name, so two names
 *   never collide: with `_` (PostgreSQL's style) collection `blog` field `post_title` and
 *   collection `blog-post` field `title` would both own `c_blog_post_title_idx`, and index names
 *   share one namespace with tables.
 * - A name longer than PostgreSQL's 63 bytes (a long slug plus a field) is cut to 54 bytes plus
 *   `_` and 8 hex digits of its SHA-256, instead of PostgreSQL's silent truncation (which would
 *   make two long names one).
 * - Type changes convert with casts that never fail: values that do not convert become null (the
 *   planner marks such changes destructive), so a confirmed apply cannot die on one odd row. The
 *   only failures left are the ones meant to stop an apply: duplicate values under a new unique
 *   index.
 * - A whole-table UPDATE only runs for destructive changes (values outside new select options,
 *   references to entries absent from a new target, component lists); ddlFor locks the table
 *   (ACCESS EXCLUSIVE) before anything, so entry writes wait for the apply instead of racing it.
 */
import { createHash } from 'node:crypto';
import type { FieldConfig } from '../../../config/config.types';
import { type Change, type FieldWithId, optionValues, typeKey } from './plan';
import { cleanDefault } from './validate';

/** PostgreSQL's identifier limit (NAMEDATALEN - 1), in bytes. */
export const MAX_IDENTIFIER_BYTES = 63;

export interface DdlOptions {
  /** The table a `relationTo` slug names; default `c_<slug>` (collectionTable). */
  tableFor?: (slug: string) => string;
}

export interface CreateTableOptions extends DdlOptions {
  drafts?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Names and quoting

/** `"name"`, with embedded quotes doubled. Refuses NUL and names PostgreSQL would truncate. */
export function quoteIdent(name: string): string {
  if (name === '' || name.includes('\u0000') || Buffer.byteLength(name) > MAX_IDENTIFIER_BYTES) {
    throw new Error(`not a usable SQL identifier: ${JSON.stringify(name)}`);
  }
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A string literal. Quotes are doubled; a string holding a backslash becomes an `E'...'` literal
 * with backslashes doubled, which reads the same whatever `standard_conforming_strings` says.
 */
export function quoteLiteral(value: string): string {
  if (value.includes('\u0000')) {
    throw new Error('a SQL literal cannot hold NUL');
  }
  const quoted = value.replace(/'/g, "''");
  return value.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** The name itself when it fits 63 bytes, else 54 bytes of it, `_` and 8 hex digits of its hash. */
export function pgName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER_BYTES) {
    return name;
  }
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  let head = name.slice(0, 54);
  while (Buffer.byteLength(head) > 54) {
    head = head.slice(0, -1);
  }
  return `${head}_${hash}`;
}

/** `c_<slug>` with `-` turned into `_` (slugs hold no `_` and no `--`, so this is one-to-one). */
export function collectionTable(slug: string): string {
  return pgName(`c_${slug.replace(/-/g, '_')}`);
}

/** The join table of a hasMany relationship: `<table>__<field>`. */
export function joinTable(table: string, field: string): string {
  return pgName(`${table}__${field}`);
}

export function fieldIndexName(table: string, field: string, suffix: 'idx' | 'key'): string {
  return pgName(`${table}-${field}-${suffix}`);
}

export function fieldConstraintName(table: string, field: string, suffix: 'check' | 'fkey'): string {
  return pgName(`${table}-${field}-${suffix}`);
}

const q = quoteIdent;
const lit = quoteLiteral;

// ---------------------------------------------------------------------------------------------
// Column types

export type ColumnType =
  'text' | 'text[]' | 'double precision' | 'boolean' | 'timestamptz' | 'jsonb' | 'uuid';

/** The column type of a field, or null for a hasMany relationship (a join table). */
export function columnType(f: Pick<FieldConfig, 'type' | 'hasMany'>): ColumnType | null {
  switch (typeKey(f)) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'select':
      return 'text';
    case 'select[]':
      return 'text[]';
    case 'number':
      return 'double precision';
    case 'checkbox':
      return 'boolean';
    case 'date':
      return 'timestamptz';
    case 'json':
    case 'richText':
    case 'component':
      return 'jsonb';
    case 'relationship':
    case 'upload':
      return 'uuid';
    case 'relationship[]':
      return null;
  }
}

function isReference(f: FieldConfig): boolean {
  return columnType(f) === 'uuid';
}

/** The SQL of a field's DEFAULT, or null. Throws on a default validation would refuse. */
export function defaultSql(f: FieldConfig): string | null {
  const checked = cleanDefault(f);
  if (!checked.ok) {
    throw new Error(`field ${f.name}: ${checked.message}`);
  }
  const v = checked.value;
  if (v === undefined) {
    return null;
  }
  switch (columnType(f)) {
    case 'text':
      return lit(v as string);
    case 'double precision':
      return String(v as number);
    case 'boolean':
      return v === true ? 'true' : 'false';
    case 'timestamptz': {
      const s = v as string;
      return `${lit(s.length === 10 ? `${s}T00:00:00Z` : s)}::timestamptz`;
    }
    case 'text[]':
      return textArray(v as string[]);
    case 'jsonb':
      return `${lit(JSON.stringify(v))}::jsonb`;
    default:
      return null;
  }
}

function textArray(values: readonly string[]): string {
  return values.length ? `ARRAY[${values.map(lit).join(', ')}]::text[]` : `'{}'::text[]`;
}

function columnDefinition(f: FieldConfig, type: ColumnType): string {
  const def = defaultSql(f);
  return `${q(f.name)} ${type}${def === null ? '' : ` DEFAULT ${def}`}`;
}

// ---------------------------------------------------------------------------------------------
// Constraints and indexes of a column field ("artifacts")

interface Artifact {
  role: 'idx' | 'key' | 'check' | 'fkey';
  name: string;
  /** Indexes are named schema-wide, constraints per table: they drop and rename differently. */
  scope: 'index' | 'constraint';
  create: string;
  /** The table-constraint clause for CREATE TABLE (checks only). */
  inline?: string;
}

function artifactsOf(table: string, f: FieldConfig, opts: DdlOptions): Artifact[] {
  const type = columnType(f);
  if (type === null) {
    return [];
  }
  const col = q(f.name);
  const out: Artifact[] = [];
  if (f.type === 'select') {
    const name = fieldConstraintName(table, f.name, 'check');
    const values = optionValues(f);
    const check =
      type === 'text[]' ? `${col} <@ ${textArray(values)}` : `${col} IN (${values.map(lit).join(', ')})`;
    out.push({
      role: 'check',
      name,
      scope: 'constraint',
      inline: `CONSTRAINT ${q(name)} CHECK (${check})`,
      create: `ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(name)} CHECK (${check})`,
    });
  }
  if (f.unique === true) {
    const name = fieldIndexName(table, f.name, 'key');
    out.push({
      role: 'key',
      name,
      scope: 'index',
      create: `CREATE UNIQUE INDEX ${q(name)} ON ${q(table)} (${col})`,
    });
  } else if (f.index === true || type === 'uuid') {
    const name = fieldIndexName(table, f.name, 'idx');
    const using = type === 'text[]' || type === 'jsonb' ? ' USING gin' : '';
    const keys = servesTiebreaker(type) ? `${col}, "id"` : col;
    out.push({
      role: 'idx',
      name,
      scope: 'index',
      create: `CREATE INDEX ${q(name)} ON ${q(table)}${using} (${keys})`,
    });
  }
  if (type === 'uuid') {
    const name = fieldConstraintName(table, f.name, 'fkey');
    out.push({
      role: 'fkey',
      name,
      scope: 'constraint',
      create:
        `ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(name)} FOREIGN KEY (${col}) ` +
        `REFERENCES ${q(targetTable(f, opts))} ("id") ON DELETE SET NULL`,
    });
  }
  return out;
}

/** A sortable column type: its plain index is on (column, id), serving the tiebreaker. */
function servesTiebreaker(type: ColumnType): boolean {
  return type === 'text' || type === 'double precision' || type === 'boolean' || type === 'timestamptz';
}

function createdAtIndex(table: string): string {
  return `CREATE INDEX ${q(pgName(`${table}-created_at-idx`))} ON ${q(table)} ("created_at", "id")`;
}

function dropArtifact(table: string, a: Artifact): string {
  return a.scope === 'index'
    ? `DROP INDEX ${q(a.name)}`
    : `ALTER TABLE ${q(table)} DROP CONSTRAINT ${q(a.name)}`;
}

function targetTable(f: FieldConfig, opts: DdlOptions): string {
  if (!f.relationTo) {
    throw new Error(`field ${f.name}: a ${f.type} field needs relationTo`);
  }
  return (opts.tableFor ?? collectionTable)(f.relationTo);
}

// ---------------------------------------------------------------------------------------------
// Join tables (hasMany relationships)

function joinNames(table: string, field: string): { table: string; pkey: string; targetIdx: string } {
  const join = joinTable(table, field);
  return { table: join, pkey: pgName(`${join}-pkey`), targetIdx: pgName(`${join}-target-idx`) };
}

/** CREATE of the join table (owner FK inline) and its index; the target FK comes apart (link). */
function joinTableDdl(table: string, f: FieldConfig, opts: DdlOptions): { create: string[]; link: string[] } {
  const names = joinNames(table, f.name);
  const join = q(names.table);
  return {
    create: [
      [
        `CREATE TABLE ${join} (`,
        `  "owner_id" uuid NOT NULL,`,
        `  "target_id" uuid NOT NULL,`,
        `  "position" integer NOT NULL,`,
        `  CONSTRAINT ${q(names.pkey)} PRIMARY KEY ("owner_id", "position"),`,
        `  CONSTRAINT "owner-fkey" FOREIGN KEY ("owner_id") REFERENCES ${q(table)} ("id") ON DELETE CASCADE`,
        `)`,
      ].join('\n'),
      `CREATE INDEX ${q(names.targetIdx)} ON ${join} ("target_id")`,
    ],
    link: [joinTargetFk(names.table, f, opts)],
  };
}

function joinTargetFk(join: string, f: FieldConfig, opts: DdlOptions): string {
  return (
    `ALTER TABLE ${q(join)} ADD CONSTRAINT "target-fkey" FOREIGN KEY ("target_id") ` +
    `REFERENCES ${q(targetTable(f, opts))} ("id") ON DELETE CASCADE`
  );
}

// ---------------------------------------------------------------------------------------------
// CREATE / DROP TABLE, drafts

/**
 * The statements that create a collection's table, in two groups: `create` (the table, its join
 * tables, indexes: runs whatever exists) and `link` (foreign keys to target tables, which must
 * exist by then). Creating several collections that reference each other: every `create` first,
 * then every `link`.
 */
export function createTablePlan(
  table: string,
  fields: readonly FieldConfig[],
  opts: CreateTableOptions = {},
): { create: string[]; link: string[] } {
  const columns = [
    `"id" uuid NOT NULL DEFAULT gen_random_uuid()`,
    `"created_at" timestamptz NOT NULL DEFAULT now()`,
    `"updated_at" timestamptz NOT NULL DEFAULT now()`,
  ];
  const constraints = [`CONSTRAINT ${q(pgName(`${table}-pkey`))} PRIMARY KEY ("id")`];
  if (opts.drafts === true) {
    columns.push(`"status" text NOT NULL DEFAULT 'draft'`);
    constraints.push(statusCheck(table).inline);
  }
  const after: string[] = [createdAtIndex(table)];
  const joins: string[] = [];
  const link: string[] = [];
  for (const f of fields) {
    const type = columnType(f);
    if (type === null) {
      const jt = joinTableDdl(table, f, opts);
      joins.push(...jt.create);
      link.push(...jt.link);
      continue;
    }
    columns.push(columnDefinition(f, type));
    for (const a of artifactsOf(table, f, opts)) {
      if (a.inline) {
        constraints.push(a.inline);
      } else if (a.role === 'fkey') {
        link.push(a.create);
      } else {
        after.push(a.create);
      }
    }
  }
  const body = [...columns, ...constraints].map((line) => `  ${line}`).join(',\n');
  return { create: [`CREATE TABLE ${q(table)} (\n${body}\n)`, ...after, ...joins], link };
}

/** createTablePlan's `create` then `link`: one collection, its targets existing. */
export function createTableDdl(
  table: string,
  fields: readonly FieldConfig[],
  opts: CreateTableOptions = {},
): string[] {
  const plan = createTablePlan(table, fields, opts);
  return [...plan.create, ...plan.link];
}

/** A btree or other index of a table as the catalog describes it (expression indexes left out). */
export interface CatalogIndex {
  name: string;
  /** Key columns in order (INCLUDE columns left out). */
  columns: readonly string[];
  unique: boolean;
  /** The access method: btree, gin, ... */
  method: string;
  /** A partial index. */
  partial: boolean;
}

/**
 * The statements that bring the plain indexes of an existing table (made by an older
 * createTablePlan or addDdl) to today's shape: `created_at` and every sortable indexed field
 * indexed on (column, id) instead of (column), under the same name. Only an index with the
 * expected name and exactly the old shape (plain btree on the one column, not unique, not
 * partial) is replaced; anything else is left as it is. Nothing when nothing is old; else a LOCK
 * of the table first (as ddlFor), to run in the boot sync's transaction.
 */
export function indexUpgradeDdl(
  table: string,
  fields: readonly FieldConfig[],
  existing: readonly CatalogIndex[],
): string[] {
  const wanted = [
    { name: pgName(`${table}-created_at-idx`), column: 'created_at', create: createdAtIndex(table) },
  ];
  for (const f of fields) {
    const type = columnType(f);
    if (type === null || f.unique === true || f.index !== true || !servesTiebreaker(type)) {
      continue;
    }
    const a = artifactsOf(table, f, {}).find((x) => x.role === 'idx');
    if (a) {
      wanted.push({ name: a.name, column: f.name, create: a.create });
    }
  }
  const out: string[] = [];
  for (const w of wanted) {
    const old = existing.find((i) => i.name === w.name);
    if (
      old &&
      old.method === 'btree' &&
      !old.unique &&
      !old.partial &&
      old.columns.length === 1 &&
      old.columns[0] === w.column
    ) {
      out.push(`DROP INDEX ${q(w.name)}`, w.create);
    }
  }
  return out.length ? [`LOCK TABLE ${q(table)} IN ACCESS EXCLUSIVE MODE`, ...out] : out;
}

/**
 * Every relation name the tables of a definition hold: the table, its join tables and every index
 * (primary keys and unique keys are indexes too). PostgreSQL keeps tables and indexes in one
 * namespace per schema, and shortened names can meet: `pgName` of a long slug's table is
 * `c_<52 characters>_<8 hex digits>`, which is also the plain table of the 61-character slug
 * `<52 characters>-<8 hex digits>`, and a long table's join table or index is cut to the same
 * 54-byte head as the table. The applier compares these names across definitions before any DDL.
 * Constraints that are not indexes (checks, foreign keys) are named per table and left out.
 */
export function relationNames(table: string, fields: readonly FieldConfig[]): string[] {
  const out = [table, pgName(`${table}-pkey`), pgName(`${table}-created_at-idx`)];
  for (const f of fields) {
    if (columnType(f) === null) {
      const j = joinNames(table, f.name);
      out.push(j.table, j.pkey, j.targetIdx);
    } else {
      out.push(
        ...artifactsOf(table, f, {})
          .filter((a) => a.scope === 'index')
          .map((a) => a.name),
      );
    }
  }
  return out;
}

/**
 * Drops a collection's table and its join tables. No CASCADE: a foreign key of another collection
 * pointing here makes it fail, so references must go first (the caller refuses the delete).
 */
export function dropTableDdl(table: string, fields: readonly FieldConfig[]): string[] {
  const joins = fields
    .filter((f) => columnType(f) === null)
    .map((f) => `DROP TABLE ${q(joinTable(table, f.name))}`);
  return [...joins, `DROP TABLE ${q(table)}`];
}

function statusCheck(table: string): { name: string; inline: string } {
  const name = pgName(`${table}-status-check`);
  return { name, inline: `CONSTRAINT ${q(name)} CHECK ("status" IN ('draft', 'published'))` };
}

/**
 * Turning drafts on or off. On: entries that exist are `published` (they were public; making them
 * drafts would hide them), new ones default to `draft`. Off: the status column goes, and with it
 * every draft becomes visible: the caller should treat that as destructive.
 */
export function draftsDdl(table: string, from: boolean, to: boolean): string[] {
  if (from === to) {
    return [];
  }
  const t = q(table);
  if (!to) {
    return [`ALTER TABLE ${t} DROP COLUMN "status"`];
  }
  return [
    `ALTER TABLE ${t} ADD COLUMN "status" text NOT NULL DEFAULT 'published'`,
    `ALTER TABLE ${t} ALTER COLUMN "status" SET DEFAULT 'draft'`,
    `ALTER TABLE ${t} ADD ${statusCheck(table).inline}`,
  ];
}

/**
 * Takes the table's lock for a schema change that has no statement of its own to carry it (the
 * drafts switch alone), so it waits for, and then holds off, the table's readers and writers.
 */
export function lockTableDdl(table: string): string {
  return `LOCK TABLE ${q(table)} IN ACCESS EXCLUSIVE MODE`;
}

// ---------------------------------------------------------------------------------------------
// Changes

/**
 * The statements that carry out `changes` (from planSchemaChange over `oldFields` -> `newFields`)
 * on `table`: drops, then renames, alters, adds (the planner's order, whatever the input order),
 * after a LOCK of the table. They must run in one transaction (LOCK TABLE refuses to run outside
 * one); nothing at all when the changes need no DDL (labels, required).
 */
export function ddlFor(
  table: string,
  changes: readonly Change[],
  oldFields: readonly FieldWithId[],
  newFields: readonly FieldWithId[],
  opts: DdlOptions = {},
): string[] {
  const t = q(table);
  const oldByName = new Map(oldFields.map((f) => [f.name, f]));
  const newByName = new Map(newFields.map((f) => [f.name, f]));
  const find = (map: Map<string, FieldWithId>, name: string, what: string): FieldWithId => {
    const f = map.get(name);
    if (!f) {
      throw new Error(`change names ${what} field "${name}", which is not among the fields given`);
    }
    return f;
  };
  const out: string[] = [];

  for (const c of changes) {
    if (c.kind === 'drop') {
      const f = find(oldByName, c.field, 'an old');
      out.push(
        columnType(f) === null
          ? `DROP TABLE ${q(joinTable(table, f.name))}`
          : `ALTER TABLE ${t} DROP COLUMN ${q(f.name)}`,
      );
    }
  }

  const renamedFrom = new Map<string, string>();
  const renames: RenameOp[] = [];
  for (const c of changes) {
    if (c.kind !== 'rename') {
      continue;
    }
    const f = find(oldByName, c.from, 'an old');
    renamedFrom.set(c.to, c.from);
    if (columnType(f) === null) {
      const a = joinNames(table, c.from);
      const b = joinNames(table, c.to);
      renames.push(
        { from: a.table, to: b.table, render: (x, y) => `ALTER TABLE ${q(x)} RENAME TO ${q(y)}` },
        { from: a.pkey, to: b.pkey, render: renameIndex },
        { from: a.targetIdx, to: b.targetIdx, render: renameIndex },
      );
      continue;
    }
    renames.push({
      from: c.from,
      to: c.to,
      render: (x, y) => `ALTER TABLE ${t} RENAME COLUMN ${q(x)} TO ${q(y)}`,
    });
    const moved = artifactsOf(table, { ...f, name: c.to }, opts);
    for (const a of artifactsOf(table, f, opts)) {
      const b = moved.find((m) => m.role === a.role);
      if (b) {
        renames.push({
          from: a.name,
          to: b.name,
          render:
            a.scope === 'index'
              ? renameIndex
              : (x, y) => `ALTER TABLE ${t} RENAME CONSTRAINT ${q(x)} TO ${q(y)}`,
        });
      }
    }
  }
  out.push(...renameStatements(renames));

  for (const c of changes) {
    if (c.kind === 'alter') {
      const b = find(newByName, c.field, 'a new');
      const a = find(oldByName, renamedFrom.get(c.field) ?? c.field, 'an old');
      out.push(...alterDdl(table, { ...a, name: b.name }, b, opts));
    }
  }

  for (const c of changes) {
    if (c.kind === 'add') {
      out.push(...addDdl(table, find(newByName, c.field, 'a new'), opts));
    }
  }
  // Taken first, so no statement below upgrades a weaker lock (an upgrade can deadlock with an
  // entry write) and no write slips in between a data fix and the constraint that needs it.
  return out.length ? [`LOCK TABLE ${t} IN ACCESS EXCLUSIVE MODE`, ...out] : out;
}

function addDdl(table: string, f: FieldConfig, opts: DdlOptions): string[] {
  const type = columnType(f);
  if (type === null) {
    const jt = joinTableDdl(table, f, opts);
    return [...jt.create, ...jt.link];
  }
  return [
    `ALTER TABLE ${q(table)} ADD COLUMN ${columnDefinition(f, type)}`,
    ...artifactsOf(table, f, opts).map((a) => a.create),
  ];
}

interface RenameOp {
  from: string;
  to: string;
  render: (from: string, to: string) => string;
}

function renameIndex(from: string, to: string): string {
  return `ALTER INDEX ${q(from)} RENAME TO ${q(to)}`;
}

/**
 * Renames in one step each, unless a new name is still held by another renamed object (a swap or
 * a chain, `a -> b` with `b -> c`): then everything moves to a temporary name first (`~<new>`;
 * no generated name holds `~`), then to its new name.
 */
function renameStatements(ops: readonly RenameOp[]): string[] {
  const sources = new Set(ops.map((o) => o.from));
  if (!ops.some((o) => sources.has(o.to))) {
    return ops.map((o) => o.render(o.from, o.to));
  }
  const tmp = (name: string): string => pgName(`~${name}`);
  return [...ops.map((o) => o.render(o.from, tmp(o.to))), ...ops.map((o) => o.render(tmp(o.to), o.to))];
}

/** One field changed from `a` to `b` (same name: renames ran before). */
function alterDdl(table: string, a: FieldConfig, b: FieldConfig, opts: DdlOptions): string[] {
  const typeA = columnType(a);
  const typeB = columnType(b);
  const t = q(table);
  const col = q(b.name);

  if (typeA === null && typeB === null) {
    if (a.relationTo === b.relationTo) {
      return [];
    }
    const join = joinTable(table, b.name);
    return [
      `ALTER TABLE ${q(join)} DROP CONSTRAINT "target-fkey"`,
      `DELETE FROM ${q(join)} AS j WHERE NOT EXISTS ` +
        `(SELECT 1 FROM ${q(targetTable(b, opts))} AS r WHERE r."id" = j."target_id")`,
      joinTargetFk(join, b, opts),
    ];
  }

  if (typeB === null) {
    // A column becomes a join table; a reference keeps its targets as one row each.
    const jt = joinTableDdl(table, b, opts);
    const out = [...jt.create];
    if (isReference(a)) {
      out.push(
        `INSERT INTO ${q(joinTable(table, b.name))} ("owner_id", "target_id", "position") ` +
          `SELECT t."id", t.${col}, 0 FROM ${t} AS t WHERE t.${col} IS NOT NULL` +
          (a.relationTo === b.relationTo ? '' : ` AND ${exists(b, `t.${col}`, opts)}`),
      );
    }
    return [...out, ...jt.link, `ALTER TABLE ${t} DROP COLUMN ${col}`];
  }

  if (typeA === null) {
    // A join table becomes a column; a reference keeps the first target.
    const join = joinTable(table, a.name);
    const out = [`ALTER TABLE ${t} ADD COLUMN ${columnDefinition(b, typeB)}`];
    if (isReference(b)) {
      const sameTarget = a.relationTo === b.relationTo;
      out.push(
        `UPDATE ${t} AS t SET ${col} = (SELECT j."target_id" FROM ${q(join)} AS j ` +
          `WHERE j."owner_id" = t."id"${sameTarget ? '' : ` AND ${exists(b, 'j."target_id"', opts)}`} ` +
          `ORDER BY j."position" LIMIT 1) ` +
          `WHERE EXISTS (SELECT 1 FROM ${q(join)} AS j WHERE j."owner_id" = t."id")`,
      );
    }
    return [...out, `DROP TABLE ${q(join)}`, ...artifactsOf(table, b, opts).map((x) => x.create)];
  }

  // Column to column.
  const before = artifactsOf(table, a, opts);
  const after = artifactsOf(table, b, opts);
  const kept = (x: Artifact, list: Artifact[]): boolean =>
    list.some((y) => y.role === x.role && y.create === x.create);
  const out: string[] = before.filter((x) => !kept(x, after)).map((x) => dropArtifact(table, x));

  const typeChanges = typeA !== typeB;
  const defaultA = defaultSql(a);
  const defaultB = defaultSql(b);
  if (defaultA !== null && (typeChanges || defaultB === null)) {
    out.push(`ALTER TABLE ${t} ALTER COLUMN ${col} DROP DEFAULT`);
  }

  // Values the new definition cannot hold (the planner marked these destructive).
  const toOptions = b.type === 'select' ? optionValues(b) : [];
  if (b.type === 'select' && typeA === 'text[]' && typeB === 'text' && losesOptions(a, b)) {
    // hasMany -> single keeps the first value that is still an option: filter the list first.
    out.push(fitOptions(table, b.name, toOptions, true));
  }
  if (typeChanges) {
    out.push(`ALTER TABLE ${t} ALTER COLUMN ${col} TYPE ${typeB} USING ${convert(col, a, b)}`);
  }
  if (b.type === 'select' && !(typeA === 'text[]' && typeB === 'text') && losesOptions(a, b)) {
    out.push(fitOptions(table, b.name, toOptions, typeB === 'text[]'));
  }
  if (isReference(b) && (!isReference(a) || a.relationTo !== b.relationTo)) {
    out.push(
      `UPDATE ${t} AS t SET ${col} = NULL WHERE t.${col} IS NOT NULL AND NOT ${exists(b, `t.${col}`, opts)}`,
    );
  }
  if (
    a.type === 'component' &&
    b.type === 'component' &&
    (a.repeatable === true) !== (b.repeatable === true)
  ) {
    out.push(
      b.repeatable === true
        ? `UPDATE ${t} SET ${col} = jsonb_build_array(${col}) WHERE jsonb_typeof(${col}) NOT IN ('array', 'null')`
        : `UPDATE ${t} SET ${col} = ${col} -> 0 WHERE jsonb_typeof(${col}) = 'array'`,
    );
  }

  if (defaultB !== null && (typeChanges || defaultA !== defaultB)) {
    out.push(`ALTER TABLE ${t} ALTER COLUMN ${col} SET DEFAULT ${defaultB}`);
  }
  out.push(...after.filter((x) => !kept(x, before)).map((x) => x.create));
  return out;
}

function losesOptions(a: FieldConfig, b: FieldConfig): boolean {
  const kept = new Set(optionValues(b));
  return a.type !== 'select' || optionValues(a).some((v) => !kept.has(v));
}

/** `EXISTS (the entry `ref` in the field's target table)`. */
function exists(f: FieldConfig, ref: string, opts: DdlOptions): string {
  return `EXISTS (SELECT 1 FROM ${q(targetTable(f, opts))} AS r WHERE r."id" = ${ref})`;
}

/** Nulls values outside the options (single), or drops them from the list (hasMany; empty -> null). */
function fitOptions(table: string, field: string, options: readonly string[], many: boolean): string {
  const t = q(table);
  const col = q(field);
  const values = options.map(lit).join(', ');
  if (many) {
    return (
      `UPDATE ${t} AS t SET ${col} = (SELECT array_agg(u.v ORDER BY u.n) ` +
      `FROM unnest(t.${col}) WITH ORDINALITY AS u(v, n) WHERE u.v IN (${values})) ` +
      `WHERE NOT (t.${col} <@ ${textArray(options)})`
    );
  }
  return `UPDATE ${t} SET ${col} = NULL WHERE ${col} IS NOT NULL AND ${col} NOT IN (${values})`;
}

// ---------------------------------------------------------------------------------------------
// Casts that never fail

/** The column's value as text, from any column type. */
function textOf(col: string, from: ColumnType): string {
  switch (from) {
    case 'text':
      return col;
    case 'text[]':
      return `array_to_string(${col}, ', ')`;
    case 'timestamptz':
      return `(to_json(${col}) #>> '{}')`;
    case 'jsonb':
      return `(${col} #>> '{}')`;
    default:
      return `${col}::text`;
  }
}

const DECIMAL = `'^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?$'`;
/** ISO 8601 date or date-time, fields in range (day-in-month is checked apart), year 0001-9999. */
const ISO_DATE =
  `'^(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])` +
  `([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]{1,9})?)?(Z|[+-](0[0-9]|1[0-5])(:?[0-5][0-9])?)?)?$'`;
const UUID = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;

/**
 * A decimal string as double precision, or null: at most 400 characters and a 3-digit exponent
 * (so numeric parses it), finite and not below double precision's normal range (so the cast to
 * double precision cannot overflow or underflow). Nested CASEs fix the evaluation order.
 */
function parseNumber(text: string): string {
  const s = `btrim(${text})`;
  const n = `${s}::numeric`;
  return (
    `CASE WHEN length(${s}) <= 400 AND ${s} ~ ${DECIMAL} THEN ` +
    `CASE WHEN abs(${n}) < 1e308 AND (${n} = 0 OR abs(${n}) > 1e-307) THEN ${n}::double precision END END`
  );
}

function parseBoolean(text: string): string {
  const s = `lower(btrim(${text}))`;
  return (
    `CASE WHEN ${s} IN ('true', 't', 'yes', 'y', 'on', '1') THEN true ` +
    `WHEN ${s} IN ('false', 'f', 'no', 'n', 'off', '0') THEN false END`
  );
}

/**
 * An ISO 8601 date or date-time as timestamptz, or null: the shape by regex, the day against the
 * month's length, then the cast. A date alone is midnight UTC, a date-time without zone is UTC.
 */
function parseDate(text: string): string {
  const s = `btrim(${text})`;
  const lastDay =
    `extract(day from make_date(substr(${s}, 1, 4)::integer, substr(${s}, 6, 2)::integer, 1) ` +
    `+ interval '1 month' - interval '1 day')`;
  const zoned =
    `CASE WHEN length(${s}) = 10 THEN ${s} || 'T00:00:00Z' ` +
    `WHEN ${s} ~ '(Z|[+-][0-9]{2}(:?[0-9]{2})?)$' THEN ${s} ELSE ${s} || 'Z' END`;
  return (
    `CASE WHEN ${s} ~ ${ISO_DATE} THEN ` +
    `CASE WHEN substr(${s}, 9, 2)::integer <= ${lastDay} THEN (${zoned})::timestamptz END END`
  );
}

function parseUuid(text: string): string {
  const s = `btrim(${text})`;
  return `CASE WHEN ${s} ~ ${UUID} THEN ${s}::uuid END`;
}

/** The USING expression turning column `col` of field `a` into the column type of field `b`. */
function convert(col: string, a: FieldConfig, b: FieldConfig): string {
  const from = columnType(a) as ColumnType;
  const to = columnType(b) as ColumnType;
  const parsable = from === 'text' || from === 'jsonb';
  switch (to) {
    case 'text':
      // hasMany select -> select: the first value (the list was filtered to the options before).
      return from === 'text[]' && b.type === 'select' ? `${col}[1]` : textOf(col, from);
    case 'text[]':
      return `CASE WHEN ${col} IS NULL THEN NULL ELSE ARRAY[${textOf(col, from)}] END`;
    case 'double precision':
      if (from === 'boolean') {
        return `${col}::integer::double precision`;
      }
      return parsable ? parseNumber(textOf(col, from)) : `NULL::double precision`;
    case 'boolean':
      if (from === 'double precision') {
        return `${col} <> 0`;
      }
      return parsable ? parseBoolean(textOf(col, from)) : `NULL::boolean`;
    case 'timestamptz':
      return parsable ? parseDate(textOf(col, from)) : `NULL::timestamptz`;
    case 'uuid':
      return parsable ? parseUuid(textOf(col, from)) : `NULL::uuid`;
    case 'jsonb':
      return b.type === 'json' ? `to_jsonb(${col})` : `NULL::jsonb`;
  }
}
