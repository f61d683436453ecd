/**
 * The job queue's own statements (pg-boss polls its schema on a timer from the same process):
 * never part of a request's statements, but they reach any spy on `pg.Client.prototype.query`
 * when a poll falls inside the measured window.
 */
export const isJobQueueStatement = (sql: string): boolean => /\bsvc_pgboss\./.test(sql);
