import { Get, Logger, Query, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiListQuery, ApiQueries, listOf } from '../../common/api-schema';
import { RequirePermission } from '../../common/access/auth.decorators';
import { SvcController } from '../../common/access/svc-controller';
import { csvRow, writeChunk } from '../../common/csv';
import { ServiceError } from '../../common/errors';
import { AUDIT_ENTRY, AUDIT_FILTERS, AUDIT_FORMAT } from './audit.openapi';
import { AUDIT_SORTABLE, AuditService } from './audit.service';
import type { AuditItem } from './audit.types';

/** The export's columns, in order (the header row). */
const CSV_COLUMNS = [
  'id',
  'createdAt',
  'event',
  'actorId',
  'actorName',
  'targetType',
  'targetId',
  'ip',
  'userAgent',
  'strategy',
  'metadata',
] as const;

const csvCells = (r: AuditItem): unknown[] => [
  r.id,
  r.createdAt,
  r.event,
  r.actor?.id,
  r.actor?.name,
  r.target?.type,
  r.target?.id,
  r.ip,
  r.userAgent,
  r.strategy,
  r.metadata,
];

/** `/admin/api/audit` (CONTRACTS 14.3): the audit log, read and exported with `read-audit`. */
@SvcController('audit')
export class AuditController {
  private readonly logger = new Logger('Audit');

  constructor(private readonly audit: AuditService) {}

  @Get()
  @RequirePermission('read-audit')
  @ApiOkResponse({ schema: listOf(AUDIT_ENTRY) })
  @ApiListQuery({ sortable: AUDIT_SORTABLE, extra: AUDIT_FILTERS })
  list(@Query() query: Record<string, unknown>) {
    return this.audit.list(query);
  }

  /**
   * Every row under the filters of the list, newest first, as CSV: a header row, then one row per
   * entry (`metadata` as JSON), formula-safe. Streamed batch by batch (the next batch is read
   * once the client took the last), so no export is held in memory whole.
   */
  @Get('export')
  @RequirePermission('read-audit')
  @ApiOkResponse({
    description: 'The filtered audit log, newest first: a header row, then a row per entry',
    content: { 'text/csv': {} },
  })
  @ApiQueries([...AUDIT_FILTERS, AUDIT_FORMAT])
  async export(@Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const format = query.format ?? 'csv';
    const filters = this.audit.filters(query);
    if (format !== 'csv') {
      throw ServiceError.validation([{ path: 'format', code: 'isIn', message: 'format must be csv' }]);
    }
    const batches = this.audit.exportBatches(filters);
    // The first batch is read before anything is sent, so a failure there is an ordinary error answer.
    let next = await batches.next();
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="audit-log.csv"');
    res.setHeader('Cache-Control', 'no-store');
    try {
      let chunk = csvRow(CSV_COLUMNS);
      while (!next.done) {
        for (const row of next.value) {
          chunk += csvRow(csvCells(row));
        }
        await writeChunk(res, chunk);
        chunk = '';
        next = await batches.next();
      }
      if (chunk) {
        await writeChunk(res, chunk);
      }
      res.end();
    } catch (e) {
      await batches.return(undefined);
      this.logger.warn({ err: (e as Error).message }, 'audit export stopped');
      res.destroy();
    }
  }
}
