/**
 * PostgreSQL advisory locks: the one key scheme of the service, and the statements that take
 * them. Repositories call these (SQL stays in repositories and here, in database/).
 *
 * A key is two int4: the lock's space from `LOCK_SPACES` (0x5c4e, "svc", in the high half; one
 * number per lock, so no two locks of the service can meet), and `hashtext(id)` for locks held
 * per object (the content schema lock, per target), `hashtext('')` otherwise. Two-int4 keys never
 * meet a one-int8 key (PostgreSQL keeps the two forms apart), such as the migration lock's or
 * pg-boss's own. A space's number may change between versions only because every instance of a
 * version uses the same one; the migration lock is the exception (see `MIGRATION_LOCK_ID`).
 */

/** Every advisory lock of the service, by name; the value is the key's first int4. */
export const LOCK_SPACES = {
  /** First-run setup: concurrent `POST /auth/setup` calls create one first user. */
  setup: 0x5c4e_0001,
  /** Writes that could take away the last active super-admin. */
  superAdmins: 0x5c4e_0002,
  /** Role inheritance: exclusive for link writes, shared for writes a super-admin check decides. */
  roleInheritance: 0x5c4e_0003,
  /** Changes of the default email provider. */
  defaultEmailProvider: 0x5c4e_0004,
  /** Writes of user field definitions (REST and the boot synchronisation). */
  userFields: 0x5c4e_0005,
  /** Schema changes of one content target (`id`: the target; `'*'`: the boot sync). */
  contentSchema: 0x5c4e_0006,
  /** Turning recorded webhook events into deliveries: one instance at a time, in event order. */
  webhookFanout: 0x5c4e_0007,
} as const;

export type LockName = keyof typeof LOCK_SPACES;
export type LockMode = 'exclusive' | 'shared';

/** The arguments of a `pg_advisory_*lock` call: its SQL and its parameters. */
export interface LockKey {
  readonly args: string;
  readonly params: readonly unknown[];
}

/** Whatever runs a statement: an EntityManager or a QueryRunner. */
interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** The key of the lock `name`, of the object `id` for a lock held per object. */
export function lockKey(name: LockName, id = ''): LockKey {
  return { args: '$1::int4, hashtext($2)', params: [LOCK_SPACES[name], id] };
}

/**
 * The migration run's key: one int8, outside the scheme above, and its value must never change.
 * During a rolling deploy instances of an older version may run migrations beside a new one;
 * only the same key keeps them from running the same migration at once.
 */
export const MIGRATION_LOCK_ID = 7_310_240_001;
export const MIGRATION_LOCK: LockKey = { args: '$1::int8', params: [MIGRATION_LOCK_ID] };

/** Takes the lock until the caller's transaction ends (waits for conflicting holders). */
export async function xactLock(em: Queryable, key: LockKey, mode: LockMode = 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await em.query(`SELECT ${fn}(${key.args})`, [...key.params]);
}

/** Takes the lock for the session (`runner`'s connection) until `sessionUnlock` or disconnect. */
export async function sessionLock(runner: Queryable, key: LockKey): Promise<void> {
  await runner.query(`SELECT pg_advisory_lock(${key.args})`, [...key.params]);
}

export async function sessionUnlock(runner: Queryable, key: LockKey): Promise<void> {
  await runner.query(`SELECT pg_advisory_unlock(${key.args})`, [...key.params]);
}
