import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { cacheLookups } from '../../common/cache';
import { refusedBudgetOf } from '../../common/errors/problem-details.filter';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { JOBS_SCHEMA } from '../../jobs/jobs.service';

/** How a sign-in ended: signed in, refused, or paused for a second step. */
export type LoginResult = 'success' | 'failure' | 'challenge';
/** What became of one webhook delivery attempt. */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

/** Request durations, in seconds: from a cached read (ms) to a slow export. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Prometheus series of one instance (`GET /api/metrics`), in a registry of its own (several
 * apps in one process, as in the tests, never share one). Off without `metricsToken`: nothing is
 * registered and every method returns at once, so an instance without metrics pays nothing.
 *
 * Labels are bounded: a route is its template (`/admin/api/users/:id`, `unmatched` when no route
 * matched), never a path, an id, an email, a key or a token.
 */
@Injectable()
export class MetricsService {
  readonly enabled: boolean;
  readonly registry = new Registry();
  private readonly requests?: Counter<'method' | 'route' | 'status'>;
  private readonly durations?: Histogram<'method' | 'route' | 'status'>;
  private readonly logins?: Counter<'result'>;
  private readonly refusals?: Counter<'budget'>;
  private readonly deliveries?: Counter<'outcome'>;

  constructor(@Inject(SVC_OPTIONS) options: SvcOptions, @InjectDataSource(SVC_CONNECTION) db: DataSource) {
    this.enabled = options.metricsToken !== undefined;
    if (!this.enabled) {
      return;
    }
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const labelNames = ['method', 'route', 'status'] as const;
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames,
      registers,
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by method, route template and status',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.logins = new Counter({
      name: 'svc_auth_logins_total',
      help: 'Password sign-ins by result: success, failure, challenge (a second step asked)',
      labelNames: ['result'],
      registers,
    });
    this.refusals = new Counter({
      name: 'svc_rate_limit_refusals_total',
      help: 'Requests refused with 429 by a spent rate-limit budget',
      labelNames: ['budget'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'svc_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered, retrying, failed (no attempt left)',
      labelNames: ['outcome'],
      registers,
    });
    const pool = () => (db.driver as unknown as { master?: Pool }).master;
    new Gauge({
      name: 'svc_db_pool_connections',
      help: 'Connections of the database pool: used, idle, and requests waiting for one',
      labelNames: ['state'],
      registers,
      collect() {
        const p = pool();
        this.set({ state: 'used' }, p ? p.totalCount - p.idleCount : 0);
        this.set({ state: 'idle' }, p?.idleCount ?? 0);
        this.set({ state: 'waiting' }, p?.waitingCount ?? 0);
      },
    });
    new Gauge({
      name: 'svc_job_queue_depth',
      help: 'Background jobs waiting to run (created or retrying), by queue',
      labelNames: ['queue'],
      registers,
      async collect() {
        this.reset();
        const rows: Array<{ name: string; depth: string }> = await db
          .query(
            `SELECT name, count(*) AS depth FROM ${JOBS_SCHEMA}.job WHERE state < 'active' GROUP BY name`,
          )
          .catch(() => []);
        for (const r of rows) {
          this.set({ queue: r.name }, Number(r.depth));
        }
      },
    });
    new Counter({
      name: 'svc_cache_requests_total',
      help: 'Lookups of the in-process caches by cache and result (hit, miss)',
      labelNames: ['cache', 'result'],
      registers,
      collect() {
        this.reset();
        for (const [cache, n] of cacheLookups) {
          this.inc({ cache, result: 'hit' }, n.hit);
          this.inc({ cache, result: 'miss' }, n.miss);
        }
      },
    });
  }

  /** One answered request (the access log's hook, for every route and the content lane). */
  observe(req: IncomingMessage, res: ServerResponse, seconds: number): void {
    if (!this.enabled) {
      return;
    }
    const path = (req as { route?: { path?: unknown } }).route?.path;
    const labels = {
      method: req.method ?? 'UNKNOWN',
      // Express leaves the last route that matched: a middleware's mount (`.../{*path}`) when no
      // handler did.
      route: typeof path === 'string' && !path.includes('{*path}') ? path : 'unmatched',
      status: String(res.headersSent ? res.statusCode : 0),
    };
    this.requests!.inc(labels);
    this.durations!.observe(labels, seconds);
    if (res.statusCode === 429) {
      this.refusals!.inc({ budget: refusedBudgetOf(res) ?? 'other' });
    }
  }

  login(result: LoginResult): void {
    this.logins?.inc({ result });
  }

  delivery(outcome: DeliveryOutcome): void {
    this.deliveries?.inc({ outcome });
  }
}
