import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { SVC_CONNECTION } from '../../svc.options';
import { SERVICE_VERSION } from '../../version';

export interface HealthReport {
  ok: boolean;
  version: string;
  uptime: number;
  timestamp: string;
  database: { ok: boolean; dialect: 'postgres'; latency: number };
}

/** A probe that hangs (database unreachable, pool exhausted) answers as failed after this. */
const PROBE_TIMEOUT_MS = 3000;

@Injectable()
export class HealthService {
  constructor(@InjectDataSource(SVC_CONNECTION) private readonly db: DataSource) {}

  async check(): Promise<HealthReport> {
    const started = process.hrtime.bigint();
    let ok = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        // Straight to the driver's pool: the probe needs no query runner, and it is polled often.
        (this.db.driver as unknown as { master: Pool }).master.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
        }),
      ]);
    } catch {
      ok = false;
    } finally {
      clearTimeout(timer);
    }
    const latency = Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100;
    return {
      ok,
      version: SERVICE_VERSION,
      uptime: Math.round(process.uptime() * 1000) / 1000,
      timestamp: new Date().toISOString(),
      database: { ok, dialect: 'postgres', latency },
    };
  }
}
