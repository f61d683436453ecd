import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RedisThrottlerStorage } from '../../common/redis-throttler-storage';
import { SVC_CONNECTION } from '../../config/svc-options';
import { SERVICE_VERSION } from '../../common/version';
import { HealthRepository } from './health.repository';

export interface Probe {
  ok: boolean;
  latency: number;
}

export interface HealthReport {
  ok: boolean;
  version: string;
  uptime: number;
  timestamp: string;
  database: Probe & { dialect: 'postgres' };
  /** Only when REDIS_URL is set. Reported, never part of `ok` (see `check`). */
  redis?: Probe;
}

/** A probe that hangs (database unreachable, pool exhausted) answers as failed after this. */
const PROBE_TIMEOUT_MS = 3000;

@Injectable()
export class HealthService {
  /** Set when the instance is shutting down: health answers 503 so a balancer moves traffic away. */
  private drainingSince?: number;

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @InjectThrottlerStorage() private readonly counters: ThrottlerStorage,
    private readonly repo: HealthRepository,
  ) {}

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** From now on, health answers 503 `draining: true`; the instance goes on serving the rest. */
  startDraining(): void {
    this.drainingSince ??= Date.now();
  }

  /**
   * `ok` is the database's alone. Redis only holds rate-limit counters: while it is down the
   * instance still serves (the global limit counts per instance, the budgets answer 503), and
   * every instance shares the one Redis, so failing health on it would make a balancer pull them
   * all at once. Both probes run together, so a slow one does not add to the other's time.
   */
  async check(): Promise<HealthReport> {
    const redis = this.counters instanceof RedisThrottlerStorage ? this.counters : undefined;
    const [database, redisProbe] = await Promise.all([
      probe(() => this.repo.ping(this.db.manager)),
      // Bounded by the counters' own call timeout (the client does not queue while disconnected).
      redis ? probe(() => redis.ping()) : undefined,
    ]);
    return {
      ok: database.ok,
      version: SERVICE_VERSION,
      uptime: Math.round(process.uptime() * 1000) / 1000,
      timestamp: new Date().toISOString(),
      database: { ok: database.ok, dialect: 'postgres', latency: database.latency },
      ...(redisProbe && { redis: redisProbe }),
    };
  }
}

async function probe(call: () => Promise<unknown>): Promise<Probe> {
  const started = process.hrtime.bigint();
  let ok = true;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      call(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS);
      }),
    ]);
  } catch {
    ok = false;
  } finally {
    clearTimeout(timer);
  }
  return { ok, latency: Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100 };
}
