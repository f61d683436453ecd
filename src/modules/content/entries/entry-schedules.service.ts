import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError, ValidationIssue } from '../../../common/errors';
import { ListRecord, listRecord, parseListQuery, refuseUnknownParameters } from '../../../common/pagination';
import { SVC_CONNECTION } from '../../../config/svc-options';
import { Job, JobsService, QueueSpec } from '../../../jobs/jobs.service';
import { AuditService } from '../../audit/audit.service';
import { AUDIT_EVENTS } from '../../audit/audit.types';
import { AuthenticationService } from '../../identity/authentication.service';
import { ContentAccessService } from '../content-access.service';
import type { Caller } from '../content-route';
import type { Definition } from '../content.types';
import { DefinitionRegistry } from '../definition-registry';
import { EntriesService } from './entries.service';
import { EntryReader } from './entry-reader';
import { ScheduleRow, SchedulesRepository } from './schedules.repository';

/**
 * One job per schedule, started at its time. Retried (a lost database) with backoff up to about
 * 10 minutes; an attempt still running after 15 s is taken as dead (its process killed) and made
 * again: a live one still holds the schedule's row lock, so the second attempt skips it, and once
 * the first committed the schedule is no longer pending.
 */
export const CONTENT_SCHEDULE: QueueSpec = {
  name: 'content-schedule',
  retryLimit: 8,
  retryDelaySeconds: 2,
  expireInSeconds: 15,
  retentionMinutes: 366 * 24 * 60,
};

const YEAR_MS = 366 * 24 * 3600 * 1000;
const ACTIONS = ['publish', 'unpublish'] as const;
const LIST_PARAMS = ['page', 'limit'];

/** A schedule as the API answers it. */
export interface ScheduleRecord {
  id: string;
  entryId: string;
  action: 'publish' | 'unpublish';
  at: Date;
  status: ScheduleRow['status'];
  createdBy: { id: string; name: string } | null;
  error: string | null;
}

/** What a scheduled write passes where a request would be: it has no headers, cookies or query. */
const NO_REQUEST = { headers: {}, query: {}, cookies: {} } as unknown as Request;

/**
 * Scheduled publishing: `publish` or `unpublish` of an entry (or a single) at a time. The row and
 * its job are written in one transaction; the job starts at `at` (the queue polls every 2 s), on
 * whichever instance takes it, and runs the write with its creator's rights at that moment, in
 * one transaction with the end of the schedule: exactly once, whatever instance ran it or how
 * often the job was retried. A refusal ends it `failed` with the reason, audited.
 */
@Injectable()
export class EntrySchedules implements OnApplicationBootstrap {
  private readonly logger = new Logger('Content');

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: SchedulesRepository,
    private readonly jobs: JobsService,
    private readonly entries: EntriesService,
    private readonly reader: EntryReader,
    private readonly registry: DefinitionRegistry,
    private readonly access: ContentAccessService,
    private readonly authentication: AuthenticationService,
    private readonly audit: AuditService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<{ scheduleId: string }>(CONTENT_SCHEDULE, (job) => this.run(job));
  }

  /** `POST .../schedule { action, at }`: needs the publish right (and drafts on the definition). */
  async create(def: Definition, entryId: string, body: unknown, caller: Caller): Promise<ScheduleRecord> {
    this.requirePublish(def, caller);
    const input = readScheduleBody(body);
    await this.reader.readOne(this.db.manager, def, entryId);
    const id = await this.db.transaction(async (em) => {
      const made = await this.repo.insert(em, {
        definitionId: def.id,
        entryId,
        action: input.action,
        at: input.at,
        createdBy: caller.auth?.user.id ?? null,
      });
      await this.jobs.send(em, CONTENT_SCHEDULE, { scheduleId: made }, { startAfter: input.at });
      return made;
    });
    return toRecord((await this.repo.find(this.db.manager, id))!);
  }

  /** `GET .../schedule`: every schedule of the entry, latest `at` first; needs the draft right. */
  async list(
    def: Definition,
    entryId: string,
    query: Record<string, unknown>,
    caller: Caller,
  ): Promise<ListRecord<ScheduleRecord>> {
    if (!this.access.mayReadDrafts(def, caller.auth)) {
      throw refusal(caller, `Schedules need the permission read-${def.slug}`);
    }
    refuseUnknownParameters(query, LIST_PARAMS);
    const q = parseListQuery<'at'>(query, {
      sortable: ['at'],
      defaultSort: { field: 'at', direction: 'desc' },
    });
    await this.reader.readOne(this.db.manager, def, entryId);
    const found = await this.repo.page(this.db.manager, def.id, entryId, q.limit, q.offset);
    return listRecord(found.rows.map(toRecord), found.total, q);
  }

  /** `DELETE .../schedule/{scheduleId}`: a pending one becomes `cancelled`; others are a 409. */
  async cancel(
    def: Definition,
    entryId: string,
    scheduleId: string,
    caller: Caller,
  ): Promise<ScheduleRecord> {
    this.requirePublish(def, caller);
    const found = await this.repo.find(this.db.manager, scheduleId);
    if (!found || found.definition_id !== def.id || found.entry_id !== entryId) {
      throw new ServiceError('NOT_FOUND', 'No such schedule');
    }
    if (!(await this.repo.finish(this.db.manager, scheduleId, 'cancelled'))) {
      throw new ServiceError(
        'CONFLICT',
        `The schedule is ${found.status} already; only a pending one can be cancelled`,
      );
    }
    return toRecord((await this.repo.find(this.db.manager, scheduleId))!);
  }

  /** The job: the schedule's write, or its failure recorded. Other failures retry the job. */
  async run(job: Job<{ scheduleId: string }>): Promise<void> {
    const row = await this.repo.find(this.db.manager, job.data.scheduleId);
    if (!row || row.status !== 'pending') {
      return;
    }
    const def = await this.definition(row.definition_id);
    if (!def) {
      return;
    }
    const auth = row.created_by ? await this.authentication.forUser(row.created_by) : null;
    let failure: string | null = null;
    if (!auth) {
      failure = 'Its creator is deactivated or deleted';
    } else if (!this.access.mayPublish(def, auth)) {
      failure = `Its creator no longer holds the permission publish-${def.slug}`;
    } else {
      try {
        const ran = await this.entries.applyScheduled(
          def,
          row.entry_id,
          row.action,
          { auth, req: NO_REQUEST },
          (em) => this.claim(em, row.id),
        );
        if (!ran) {
          return;
        }
      } catch (e) {
        if (!(e instanceof ServiceError)) {
          throw e;
        }
        failure = e.code === 'NOT_FOUND' ? 'The entry was deleted' : e.message;
      }
    }
    if (failure !== null) {
      await this.fail(row, def, failure);
    }
  }

  /**
   * Ends the schedule `done` in the run's transaction: false when it is no longer pending. A
   * pending one locked by another attempt (alive, but past the queue's expiry) fails this attempt,
   * so the job is tried again later rather than finished while that attempt may still die.
   */
  private async claim(em: EntityManager, id: string): Promise<boolean> {
    if (await this.repo.lockPending(em, id)) {
      return this.repo.finish(em, id, 'done');
    }
    if ((await this.repo.find(em, id))?.status === 'pending') {
      throw new Error('the schedule is being run by another attempt');
    }
    return false;
  }

  private async fail(row: ScheduleRow, def: Definition, error: string): Promise<void> {
    await this.db.transaction(async (em) => {
      if (await this.repo.finish(em, row.id, 'failed', error)) {
        await this.audit.record(
          {
            event: AUDIT_EVENTS.scheduleFailed,
            actorId: row.created_by,
            target: def.kind === 'single' ? `single:${def.slug}` : `collection:${def.slug}/${row.entry_id}`,
            metadata: { scheduleId: row.id, action: row.action, error },
          },
          em,
        );
      }
    });
    this.logger.warn({ scheduleId: row.id, error }, 'scheduled change failed');
  }

  private async definition(id: string): Promise<Definition | undefined> {
    for (const kind of ['collection', 'single'] as const) {
      const found = (await this.registry.all(kind)).find((d) => d.id === id);
      if (found) {
        return found;
      }
    }
    return undefined;
  }

  private requirePublish(def: Definition, caller: Caller): void {
    if (!def.drafts) {
      throw new ServiceError(
        'CONFLICT',
        `The ${def.kind} ${def.slug} has no drafts: there is nothing to publish`,
      );
    }
    if (!this.access.mayPublish(def, caller.auth)) {
      throw refusal(caller, `Scheduling needs the permission publish-${def.slug}`);
    }
  }
}

function refusal(caller: Caller, message: string): ServiceError {
  return caller.auth
    ? new ServiceError('FORBIDDEN', message)
    : new ServiceError('AUTH_REQUIRED', 'Sign in first');
}

/** `{ action: "publish" | "unpublish", at }`: `at` an ISO time in the future, within a year. */
function readScheduleBody(body: unknown): { action: 'publish' | 'unpublish'; at: Date } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ServiceError.validation([
      { path: '', code: 'isObject', message: 'the body must be a JSON object' },
    ]);
  }
  const input = body as Record<string, unknown>;
  const issues: ValidationIssue[] = Object.keys(input)
    .filter((k) => k !== 'action' && k !== 'at')
    .map((k) => ({
      path: k,
      code: 'unknown_field',
      message: `"${k}" is not accepted here (allowed: action, at)`,
    }));
  if (!ACTIONS.includes(input.action as 'publish')) {
    issues.push({ path: 'action', code: 'isIn', message: 'action must be "publish" or "unpublish"' });
  }
  const at = typeof input.at === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(input.at) ? new Date(input.at) : null;
  const now = Date.now();
  if (!at || Number.isNaN(at.getTime())) {
    issues.push({ path: 'at', code: 'isDate', message: 'at must be an ISO 8601 date and time' });
  } else if (at.getTime() <= now) {
    issues.push({ path: 'at', code: 'min', message: 'at must be in the future' });
  } else if (at.getTime() > now + YEAR_MS) {
    issues.push({ path: 'at', code: 'max', message: 'at must be within a year' });
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return { action: input.action as 'publish' | 'unpublish', at: at! };
}

function toRecord(r: ScheduleRow): ScheduleRecord {
  return {
    id: r.id,
    entryId: r.entry_id,
    action: r.action,
    at: r.at,
    status: r.status,
    createdBy: r.created_by ? { id: r.created_by, name: r.created_by_name ?? '' } : null,
    error: r.error,
  };
}
