/**
 * Statements of the background work (never part of a request's statements, but they reach any
 * spy on `pg.Client.prototype.query` when they fall inside the measured window): the job queue's
 * own (pg-boss polls its schema on a timer from the same process) and the jobs it runs on a
 * timer, such as the audit and webhook retention purges each app schedules at boot.
 */
export const isJobQueueStatement = (sql: string): boolean =>
  /\bsvc_pgboss\./.test(sql) ||
  /^\s*DELETE FROM audit_log WHERE id IN \(/.test(sql) ||
  /^\s*WITH gone AS \(\s*DELETE FROM webhook_(deliveries|events) /.test(sql);

/** The SQL of a `pg.Client.prototype.query` call's first argument (a text or a query config). */
export const statementText = (q: unknown): string =>
  typeof q === 'string' ? q : String((q as { text?: unknown }).text);
