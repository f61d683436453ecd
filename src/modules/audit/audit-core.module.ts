import { Module } from '@nestjs/common';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/**
 * AuditService alone, without the routes and the request interceptor of AuditModule: for a
 * Nest context that writes audit rows but serves no HTTP (`seed:admin`).
 */
@Module({ providers: [AuditService, AuditRepository], exports: [AuditService] })
export class AuditCoreModule {}
