import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SVC_CONNECTION } from '../../config/svc-options';

export interface AuditEntry {
  event: string;
  actorId?: string | null;
  target?: string | null;
  metadata?: Record<string, unknown>;
  ip?: string | null;
}

/** Append-only audit rows. Writes inside the caller's transaction when given one. */
@Injectable()
export class AuditService {
  constructor(@InjectDataSource(SVC_CONNECTION) private readonly db: DataSource) {}

  async record(entry: AuditEntry, em: EntityManager = this.db.manager): Promise<void> {
    await em.query(
      `INSERT INTO audit_log (event, actor_id, target, metadata, ip) VALUES ($1, $2, $3, $4, $5)`,
      [
        entry.event,
        entry.actorId ?? null,
        entry.target ?? null,
        JSON.stringify(entry.metadata ?? {}),
        entry.ip ?? null,
      ],
    );
  }
}
