import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Client, type Notification } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { SVC_CONNECTION } from '../../config/svc-options';
import { jobsConnectionOptions } from '../../jobs/jobs-connection';

/** The caches other instances hold of what one instance changes. */
export type SharedCache = 'rbac' | 'accounts' | 'api-keys' | 'settings' | 'definitions' | 'user-fields';

/** PostgreSQL's notification channel (per database, so two deployments on one server never meet). */
export const CHANGES_CHANNEL = 'svc_changes';
/** The listening connection's name in `pg_stat_activity`. */
export const LISTENER_NAME = 'svc-changes';

/** Reconnection delays after a lost listening connection: doubled from the first to the last. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5000;

interface Change {
  /** The instance that changed it (its own notifications come back to it: ignored). */
  o: string;
  c: SharedCache;
  /** One key of the cache, or every key when null. */
  k: string | null;
}

/**
 * Tells the other instances on the database what this one changed, so that they forget their
 * cached copies within a moment rather than at the caches' 5-10 s expiry, which stays the bound
 * when this path is down. PostgreSQL `LISTEN/NOTIFY` rather than Redis pub/sub: every deployment
 * has the database, Redis is optional, and one path is simpler to trust.
 *
 * A change is published after its commit (the callers invalidate their own cache then), through
 * the pool, as its own statement, or inside its transaction (`publishIn`): either way it reaches
 * the others at once, never before the change is visible to them. One connection per instance listens; when it is lost the instance logs it,
 * reconnects (100 ms, doubling to 5 s) and then forgets every shared cache, since what was
 * published meanwhile never reached it.
 */
@Injectable()
export class ChangeBus implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Changes');
  private readonly id = randomUUID();
  private readonly forgetters = new Map<SharedCache, (key?: string) => void>();
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  /** Set while the listening connection is down after having been up (so a flush is due). */
  private lostAt?: number;

  constructor(@InjectDataSource(SVC_CONNECTION) private readonly db: DataSource) {}

  /** How this instance forgets its copy of `cache` (one key, or all of it without one). */
  on(cache: SharedCache, forget: (key?: string) => void): void {
    this.forgetters.set(cache, forget);
  }

  /**
   * Tells the other instances that `cache` (`key` of it, or all of it) changed. Call after the
   * change committed. Best effort: a failure is logged, and the others' cache expiry still bounds
   * what they serve.
   */
  publish(cache: SharedCache, key?: string): void {
    if (this.stopped) {
      return;
    }
    const change: Change = { o: this.id, c: cache, k: key ?? null };
    this.db
      .query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, JSON.stringify(change)])
      .catch((err: unknown) =>
        this.logger.warn({ err, cache }, 'a change could not be published to the other instances'),
      );
  }

  /**
   * The same, from inside the change's transaction: PostgreSQL delivers the notification when it
   * commits (and never if it rolls back), so another instance cannot re-read the old rows.
   */
  async publishIn(em: EntityManager, cache: SharedCache, key?: string): Promise<void> {
    const change: Change = { o: this.id, c: cache, k: key ?? null };
    await em.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, JSON.stringify(change)]);
  }

  async onApplicationBootstrap(): Promise<void> {
    // A failed first attempt does not stop the boot: the listener keeps trying.
    await this.listen(RECONNECT_FIRST_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(nextDelay: number): Promise<void> {
    if (this.stopped) {
      return;
    }
    const client = new Client({
      ...(jobsConnectionOptions(this.db.options) as object),
      application_name: LISTENER_NAME,
      // The listener sits idle between notifications; the server's idle timeouts must not end it.
      keepAlive: true,
    });
    client.on('notification', (n) => this.received(n));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.lostAt ??= Date.now();
      this.logger.error({ err }, 'cannot listen for other instances’ changes: retrying');
      this.schedule(nextDelay);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.lostAt !== undefined) {
      const downMs = Date.now() - this.lostAt;
      this.lostAt = undefined;
      // What the others published meanwhile never arrived: forget everything shared.
      for (const forget of this.forgetters.values()) {
        forget();
      }
      this.logger.log({ downMs }, 'listening for other instances’ changes again; shared caches flushed');
    }
  }

  private lost(client: Client, err?: Error): void {
    if (this.stopped || this.client !== client) {
      return;
    }
    this.client = undefined;
    this.lostAt = Date.now();
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.logger.error(
      { err },
      'lost the connection that hears other instances’ changes: reconnecting (caches expire meanwhile)',
    );
    this.schedule(RECONNECT_FIRST_MS);
  }

  /** The next attempt in `delay` ms; the one after that (if needed) waits twice as long. */
  private schedule(delay: number): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.listen(Math.min(delay * 2, RECONNECT_MAX_MS)), delay);
    this.retry.unref();
  }

  private received(n: Notification): void {
    let change: Change;
    try {
      change = JSON.parse(n.payload ?? '') as Change;
    } catch {
      return;
    }
    if (change.o === this.id) {
      return;
    }
    this.forgetters.get(change.c)?.(change.k ?? undefined);
  }
}
