import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SVC_CONNECTION } from '../../config/svc-options';
import { AuditEntry, AuditRepository } from './audit.repository';

export type { AuditEntry } from './audit.repository';

/** Append-only audit rows. Writes inside the caller's transaction when given one. */
@Injectable()
export class AuditService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: AuditRepository,
  ) {}

  record(entry: AuditEntry, em: EntityManager = this.db.manager): Promise<void> {
    return this.repo.insert(em, entry);
  }
}
