import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ConfigError } from '../../config/env';
import { ServiceError, ValidationIssue } from '../../common/errors';
import { listRecord, ListRecord, parseListQuery } from '../../common/pagination';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { isUniqueViolation } from '../../database/pg-errors';
import type { CreateUserFieldDto, ReorderUserFieldsDto, UpdateUserFieldDto } from './dto/user-field.dto';
import {
  checkConfigFields,
  checkDefinition,
  checkLabel,
  checkOptionsFor,
  CleanDefinition,
  presentValues,
  UserFieldDefinition,
  validateValues,
  ValuesResult,
} from './user-field-values';
import { UserFieldRow, UserFieldsRepository } from './user-fields.repository';
import { ChangeBus } from '../cluster/change-bus.service';

/** How long a loaded list of definitions is used before it is read again. */
export const USER_FIELDS_TTL_MS = 5000;

type SortField = 'order' | 'name' | 'label';
export const SORTABLE: readonly SortField[] = ['order', 'name', 'label'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Snapshot {
  at: number;
  all: readonly UserFieldDefinition[];
}

function notFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such user field');
}

function codeDefined(row: UserFieldRow): ServiceError {
  return new ServiceError(
    'CONFLICT',
    `The user field ${row.name} is defined in the configuration (users.fields); change it there`,
  );
}

/** The definition record of CONTRACTS 12; `options` only for a select. */
export function toUserFieldDefinition(row: UserFieldRow): UserFieldDefinition {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    label: row.label,
    required: row.required,
    ...(row.type === 'select' && row.options ? { options: row.options } : {}),
    order: row.order,
    source: row.source,
  };
}

/**
 * Custom user fields: the definitions (code-defined from `users.fields`, synchronised into
 * `user_fields` at boot, and UI-defined over REST), the validation of values, and the values a
 * user record shows.
 *
 * Cache: the definitions are read once and reused. Bound on staleness: a loaded list is used for
 * at most 5 s by `definitions()` and `validateValues()` (then read again); every write through
 * this instance reloads it before the write answers, so this instance sees its own writes at
 * once, other instances within 5 s. `present()` is synchronous (the user mapper is): it uses the
 * newest loaded list and, when that is older than 5 s, starts a reload in the background, so it
 * can lag by one call after an idle spell; a caller that must be exact awaits `definitions()`
 * first. Not common/cache.ts: one snapshot, whose concurrent loads share one query, and which
 * `present()` still reads (synchronously) once expired or invalidated.
 */
@Injectable()
export class UserFieldsService implements OnModuleInit {
  private readonly logger = new Logger('UserFields');
  private readonly codeFields: CleanDefinition[];
  private snapshot: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  /** Raised by every write; a load that started before it must not be kept. */
  private generation = 0;

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: UserFieldsRepository,
    @Inject(SVC_OPTIONS) options: SvcOptions,
    @Optional() @Inject(ChangeBus) private readonly changes: ChangeBus | null,
  ) {
    changes?.on('user-fields', () => this.invalidate());
    // A wrong code-defined field stops the boot, naming the entry (fail fast, like the env).
    const { definitions, problems } = checkConfigFields(options.config.users.fields);
    if (problems.length) {
      throw new ConfigError(problems);
    }
    this.codeFields = definitions;
  }

  async onModuleInit(): Promise<void> {
    await this.synchronise();
    // Normally loaded by the synchronisation already; this makes a failed load stop the boot.
    await this.current();
  }

  // ------------------------------------------------------------------------------------------
  // For the accounts module

  /** Every definition, in order (code-defined and UI-defined together). */
  async definitions(): Promise<UserFieldDefinition[]> {
    return [...(await this.current()).all];
  }

  /**
   * Validates custom field values (a body's keys other than the core ones) and answers the
   * cleaned values to store, or throws 400 VALIDATION_ERROR with one `data.errors` entry per
   * problem (`path` = the field name). `partial` (updates): absent fields are untouched and
   * required fields need not be given, but may not be set to null or blank.
   */
  async validateValues(
    input: Record<string, unknown>,
    opts: { partial: boolean },
  ): Promise<Record<string, unknown>> {
    const { values, errors } = await this.checkValues(input, opts);
    if (errors.length) {
      throw ServiceError.validation(errors);
    }
    return values;
  }

  /** Like `validateValues` but answers the problems instead of throwing, to merge with a DTO's own. */
  async checkValues(input: Record<string, unknown>, opts: { partial: boolean }): Promise<ValuesResult> {
    return validateValues((await this.current()).all, input, opts);
  }

  /**
   * The values a user record shows: every currently defined field (null when it has no value, or
   * when the stored value no longer fits the field's definition); stored keys of fields that are
   * not defined (deleted, or removed from the config) are left out. The session user shows the
   * same set (CONTRACTS 4: every custom field). Synchronous; see the class comment.
   */
  present(custom: Record<string, unknown> | null | undefined): Record<string, unknown> {
    const s = this.snapshot;
    if (!s || Date.now() - s.at >= USER_FIELDS_TTL_MS) {
      this.load().catch((err: unknown) =>
        this.logger.error({ err }, 'user field definitions could not be reloaded'),
      );
    }
    if (!s) {
      return {};
    }
    return presentValues(s.all, custom);
  }

  // ------------------------------------------------------------------------------------------
  // REST

  /** The List record; `page`/`limit` (CONTRACTS 8), `search` (name or label), `sort` (default `order`). */
  async list(query: Record<string, unknown> = {}): Promise<ListRecord<UserFieldDefinition>> {
    const q = parseListQuery(query, {
      sortable: SORTABLE,
      defaultSort: { field: 'order', direction: 'asc' },
    });
    let items = [...(await this.current()).all];
    if (q.search) {
      const needle = q.search.toLowerCase();
      items = items.filter(
        (f) => f.name.toLowerCase().includes(needle) || f.label.toLowerCase().includes(needle),
      );
    }
    if (q.sort.field !== 'order' || q.sort.direction !== 'asc') {
      const field = q.sort.field;
      const sign = q.sort.direction === 'desc' ? -1 : 1;
      items.sort((a, b) => {
        const c =
          field === 'order' ? a.order - b.order : a[field].localeCompare(b[field]) || a.order - b.order;
        return sign * c;
      });
    }
    return listRecord(items.slice(q.offset, q.offset + q.limit), items.length, q);
  }

  /** Read from the table, not the cache: a field created on another instance is found at once. */
  async get(id: string): Promise<UserFieldDefinition> {
    const row = await this.repo.findById(this.db.manager, id);
    if (!row) {
      throw notFound();
    }
    return toUserFieldDefinition(row);
  }

  /** A UI-defined field, placed last. A name taken (case-insensitively) is 409 DUPLICATE. */
  async create(dto: CreateUserFieldDto): Promise<UserFieldDefinition> {
    const { definition, errors } = checkDefinition(dto);
    if (!definition) {
      throw ServiceError.validation(errors);
    }
    const row = await this.write(async (em) => {
      const taken = await this.repo.findByNameInsensitive(em, definition.name);
      if (taken) {
        throw duplicate(definition.name, taken.name);
      }
      return this.repo.insert(em, { ...definition, order: await this.repo.nextOrder(em), source: 'ui' });
    }).catch((e: unknown) => {
      // The unique index backs the check should anything write without the lock.
      throw isUniqueViolation(e) ? duplicate(definition.name, definition.name) : e;
    });
    this.logger.log({ userFieldId: row.id, name: row.name }, 'user field created');
    return toUserFieldDefinition(row);
  }

  /**
   * Label, required and options. A field keeps its name and type (stored values are keyed by the
   * name and were validated for the type): `name`/`type` may only repeat the current ones.
   * Making a field required does not touch existing users; it applies to their next writes.
   */
  async update(id: string, dto: UpdateUserFieldDto): Promise<UserFieldDefinition> {
    const row = await this.write(async (em) => {
      const current = await this.repo.findById(em, id);
      if (!current) {
        throw notFound();
      }
      if (current.source === 'code') {
        throw codeDefined(current);
      }
      const errors: ValidationIssue[] = [];
      if (dto.name !== undefined && dto.name !== current.name) {
        errors.push({
          path: 'name',
          code: 'immutable',
          message: 'a user field cannot be renamed; create a new field (and delete this one)',
        });
      }
      if (dto.type !== undefined && dto.type !== current.type) {
        errors.push({
          path: 'type',
          code: 'immutable',
          message: 'a user field cannot change its type; create a new field (and delete this one)',
        });
      }
      const label = dto.label === undefined ? current.label : checkLabel(dto.label, errors);
      if (dto.required !== undefined && typeof dto.required !== 'boolean') {
        errors.push({ path: 'required', code: 'isBoolean', message: 'required must be a boolean' });
      }
      const options =
        dto.options === undefined ? current.options : checkOptionsFor(current.type, dto.options, errors);
      if (errors.length || label === undefined) {
        throw ServiceError.validation(errors);
      }
      return this.repo.update(em, id, {
        name: current.name,
        type: current.type,
        label,
        required: typeof dto.required === 'boolean' ? dto.required : current.required,
        options,
        source: 'ui',
      });
    });
    if (!row) {
      throw notFound();
    }
    this.logger.log({ userFieldId: id }, 'user field updated');
    return toUserFieldDefinition(row);
  }

  /**
   * Removes the definition; the others close the gap in the order. Stored values stay in
   * `users.custom` (the accounts module owns that column) but are no longer returned.
   */
  async remove(id: string): Promise<UserFieldDefinition> {
    const row = await this.write(async (em) => {
      const current = await this.repo.findById(em, id);
      if (!current) {
        throw notFound();
      }
      if (current.source === 'code') {
        throw codeDefined(current);
      }
      const removed = await this.repo.delete(em, id);
      await this.repo.compactOrder(em);
      return removed;
    });
    if (!row) {
      throw notFound();
    }
    this.logger.log({ userFieldId: id, name: row.name }, 'user field deleted');
    return toUserFieldDefinition(row);
  }

  /**
   * The full new order: every field id (code-defined ones too: the order is presentation, not
   * part of the config's definition) exactly once. Answers the List (with the request's query).
   */
  async reorder(dto: ReorderUserFieldsDto, query: Record<string, unknown> = {}) {
    // The list query is checked before anything is written.
    parseListQuery(query, { sortable: SORTABLE, defaultSort: { field: 'order', direction: 'asc' } });
    const ids = reorderIds(dto.ids);
    await this.write(async (em) => {
      const existing = new Set((await this.repo.all(em)).map((r) => r.id));
      const errors: ValidationIssue[] = [];
      ids.forEach((id, i) => {
        if (!existing.has(id)) {
          errors.push({ path: `ids.${i}`, code: 'unknown_id', message: `${id} is not a user field` });
        }
      });
      const given = new Set(ids);
      const missing = [...existing].filter((id) => !given.has(id));
      if (missing.length) {
        errors.push({
          path: 'ids',
          code: 'incomplete',
          message: `ids must list every user field exactly once; missing: ${missing.join(', ')}`,
        });
      }
      if (errors.length) {
        throw ServiceError.validation(errors);
      }
      await this.repo.setOrder(em, ids);
    });
    this.logger.log({ count: ids.length }, 'user fields reordered');
    return this.list(query);
  }

  // ------------------------------------------------------------------------------------------
  // Boot synchronisation and the cache

  /**
   * Makes the table hold exactly the config's code-defined fields (plus the UI-defined ones), in
   * one transaction under the write lock, so instances booting at once do not interleave:
   * - a config field already stored (by name) is updated and keeps its id and order; a UI-defined
   *   row of the same name is taken over (becomes code-defined, keeping its values);
   * - a new config field is appended to the order, in config order;
   * - a code-defined row the config no longer has is deleted; its stored values stay in
   *   `users.custom` and come back if the field is defined again.
   * Every instance should run the same config: the last one to boot decides.
   */
  async synchronise(): Promise<void> {
    await this.write(async (em) => {
      const removed = await this.repo.deleteCodeFieldsExcept(
        em,
        this.codeFields.map((f) => f.name),
      );
      for (const r of removed) {
        this.logger.log(
          { name: r.name },
          'code-defined user field removed from the config: definition deleted',
        );
      }
      const byName = new Map((await this.repo.all(em)).map((r) => [r.name, r]));
      let next = await this.repo.nextOrder(em);
      for (const field of this.codeFields) {
        const stored = byName.get(field.name);
        if (!stored) {
          await this.repo.insert(em, { ...field, order: next++, source: 'code' });
          continue;
        }
        if (stored.source === 'ui') {
          this.logger.warn(
            { name: field.name },
            'the config defines a user field that was created over REST: the config takes it over',
          );
        }
        await this.repo.update(em, stored.id, { ...field, source: 'code' });
      }
      if (removed.length) {
        await this.repo.compactOrder(em);
      }
    });
  }

  /**
   * Runs a write under the lock. After it commits the cache is reloaded before the write
   * answers; after a failure it is only marked stale (a failed COMMIT leaves the outcome unknown).
   */
  private async write<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await this.db.transaction(async (em) => {
        await this.repo.lock(em);
        return fn(em);
      });
    } catch (e) {
      this.invalidate();
      throw e;
    }
    this.invalidate();
    this.changes?.publish('user-fields');
    await this.load().catch((err: unknown) =>
      this.logger.error({ err }, 'user field definitions could not be reloaded'),
    );
    return result;
  }

  /** The loaded list stays usable by present() until the reload lands; nothing else reuses it. */
  private invalidate(): void {
    this.generation++;
    this.loading = null;
    if (this.snapshot) {
      this.snapshot = { ...this.snapshot, at: 0 };
    }
  }

  private async current(): Promise<Snapshot> {
    const s = this.snapshot;
    if (s && Date.now() - s.at < USER_FIELDS_TTL_MS) {
      return s;
    }
    return this.load();
  }

  /** One read at a time; a read that started before a write is answered but not kept. */
  private load(): Promise<Snapshot> {
    if (this.loading) {
      return this.loading;
    }
    const generation = this.generation;
    const startedAt = Date.now();
    const loading = this.repo
      .all(this.db.manager)
      .then((rows) => {
        const all = Object.freeze(rows.map((r) => Object.freeze(toUserFieldDefinition(r))));
        const snapshot: Snapshot = {
          at: startedAt,
          all,
        };
        if (generation === this.generation) {
          this.snapshot = snapshot;
        }
        return snapshot;
      })
      .finally(() => {
        if (this.loading === loading) {
          this.loading = null;
        }
      });
    this.loading = loading;
    return loading;
  }
}

function duplicate(name: string, existing: string): ServiceError {
  return new ServiceError(
    'DUPLICATE',
    existing === name
      ? `A user field named ${name} already exists`
      : `A user field named ${existing} already exists (names are compared without case)`,
  );
}

/** `ids`: an array of UUIDs, none twice (checked before the database is read). */
function reorderIds(value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw ServiceError.validation([
      { path: 'ids', code: 'isArray', message: 'ids must be an array of user field ids' },
    ]);
  }
  const errors: ValidationIssue[] = [];
  const seen = new Set<string>();
  const ids: string[] = [];
  value.forEach((raw: unknown, i) => {
    if (typeof raw !== 'string' || !UUID.test(raw)) {
      errors.push({ path: `ids.${i}`, code: 'isUUID', message: `ids.${i} must be a user field id` });
      return;
    }
    const id = raw.toLowerCase();
    if (seen.has(id)) {
      errors.push({ path: `ids.${i}`, code: 'duplicate', message: `${id} is listed more than once` });
    }
    seen.add(id);
    ids.push(id);
  });
  if (errors.length) {
    throw ServiceError.validation(errors);
  }
  return ids;
}
