/** The answer of `GET /api/health` (`HealthReport` of health.service.ts), when the database answers. */
import { DATE_TIME, objectSchema, STRING } from '../../common/api-schema';

const NUMBER = { type: 'number' };
/** A probe's verdict; `latency` in milliseconds. */
const PROBE = objectSchema({ ok: { type: 'boolean' }, latency: NUMBER });

/** `ok` is the database's alone (a failed probe answers 503); `redis` only when REDIS_URL is set. */
export const HEALTH_REPORT = objectSchema(
  {
    ok: { type: 'boolean', const: true },
    version: STRING,
    uptime: NUMBER,
    timestamp: DATE_TIME,
    database: objectSchema({
      ok: { type: 'boolean', const: true },
      dialect: { type: 'string', const: 'postgres' },
      latency: NUMBER,
    }),
    redis: PROBE,
  },
  ['redis'],
);
