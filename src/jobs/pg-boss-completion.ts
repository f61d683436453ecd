import { Logger } from '@nestjs/common';

interface Ending {
  complete(this: unknown, ...args: unknown[]): Promise<unknown>;
  fail(this: unknown, ...args: unknown[]): Promise<unknown>;
}

// pg-boss has no types for its internals, and no `exports` map: the class its `work()` lives in.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prototype: manager } = require('pg-boss/src/manager') as { prototype: Ending };

const logger = new Logger('Jobs');
const NOTHING = { jobs: [], requested: 0, affected: 0 };
let wrapped = false;

/**
 * pg-boss 10's `work()` ends each job with `this.complete(...)` or `this.fail(...)` and awaits
 * neither (src/manager.js, `onFetch`): when that statement fails, e.g. its pool of two timed out
 * on a busy database, the rejection is unhandled, which ends a Node process (and failed a test
 * file in CI). Both are wrapped once, before any PgBoss exists, to report the failure instead; the
 * job stays active and is retried after its queue's `expireInSeconds`, as after a crash, which
 * every handler already allows for.
 */
export function reportJobEndingFailures(): void {
  if (wrapped) {
    return;
  }
  wrapped = true;
  for (const name of ['complete', 'fail'] as const) {
    const original = manager[name];
    const wrapper = async function (this: unknown, ...args: unknown[]) {
      try {
        return await original.apply(this, args);
      } catch (e) {
        logger.warn(
          `could not mark job ${String(args[1])} of ${String(args[0])} as ${name === 'complete' ? 'done' : 'failed'}: ${
            (e as Error).message
          }; it is retried once its time runs out`,
        );
        return NOTHING;
      }
    };
    // PgBoss exposes the manager's methods under their function names (`promoteFunctions`).
    Object.defineProperty(wrapper, 'name', { value: name });
    manager[name] = wrapper;
  }
}
