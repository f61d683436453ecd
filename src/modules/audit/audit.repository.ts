import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

export interface AuditEntry {
  event: string;
  actorId?: string | null;
  target?: string | null;
  metadata?: Record<string, unknown>;
  ip?: string | null;
}

/** SQL of the audit log: append-only rows. */
@Injectable()
export class AuditRepository {
  async insert(em: EntityManager, entry: AuditEntry): Promise<void> {
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
