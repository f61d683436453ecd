import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import { andThen, type Awaitable, TtlCache } from '../../common/cache';
import { randomToken, sha256Hex } from '../../common/crypto';
import { ServiceError } from '../../common/errors';
import { ListQuery, ListRecord, listRecord } from '../../common/pagination';
import { MemoryCounterStore } from '../../common/memory-counter-store';
import { countersUnavailable, setRateLimitHeaders } from '../../common/rate-limit';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import type { AuthContext } from '../../common/access/auth-context';
import { RbacService } from '../rbac/rbac.service';
import { UserFieldsService } from '../user-fields/user-fields.service';
import { AccountsService } from '../accounts/accounts.service';
import { ApiKeyRecord, keyStatus, toApiKeyRecord } from './api-key.mapper';
import { ApiKeyRow, ApiKeysRepository, ApiKeyType, FoundApiKey } from './api-keys.repository';
import { AuditService } from '../audit/audit.service';
import type { ApiKeySortField } from './api-keys.types';
import { ChangeBus } from '../cluster/change-bus.service';

export const API_KEY_PREFIX = 'svc_live_';
/** Same bound as account state: a revocation elsewhere is seen within 5 s (10 s allowed). */
const KEY_TTL_MS = 5000;
const MAX_CACHED_KEYS = 10_000;
/** `lastUsedAt` is written at most this often per key, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

const INVALID_KEY = () => new ServiceError('AUTH_INVALID_CREDENTIALS', 'The API key is not valid');

/**
 * API keys (SPEC 2.4, 3.5, 5.3; CONTRACTS 5). A request with a key costs no query once warm: the
 * key row (by hash), the creator's account and the permission sets all come from bounded caches.
 */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger('ApiKeys');
  /**
   * key hash -> key row (or null for an unknown key). Bound on staleness: 5 s, and every revoke or
   * edit on this instance clears it (a read that began before that is not stored). Size: 10,000.
   */
  private readonly cache = new TtlCache<string, FoundApiKey | null>({
    max: MAX_CACHED_KEYS,
    ttlMs: KEY_TTL_MS,
    name: 'api-keys',
  });
  private readonly touched = new Map<string, number>();

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    @InjectThrottlerStorage() private readonly counters: ThrottlerStorage,
    private readonly repo: ApiKeysRepository,
    private readonly accounts: AccountsService,
    private readonly rbac: RbacService,
    private readonly userFields: UserFieldsService,
    private readonly audit: AuditService,
    @Optional() @Inject(ChangeBus) private readonly changes: ChangeBus | null,
  ) {
    changes?.on('api-keys', () => this.cache.invalidate());
  }

  async list(auth: AuthContext, q: ListQuery<ApiKeySortField>): Promise<ListRecord<ApiKeyRecord>> {
    const { items, total } = await this.repo.listForUser(this.db.manager, auth.user.id, q);
    return listRecord(items.map(toApiKeyRecord), total, q);
  }

  async get(auth: AuthContext, id: string): Promise<ApiKeyRecord> {
    return toApiKeyRecord(await this.own(auth, id));
  }

  /** The full key is in this answer only; the database keeps its SHA-256 and a 12-character prefix. */
  async create(
    auth: AuthContext,
    input: {
      name: string;
      description?: string | null;
      type: ApiKeyType;
      roleId?: string;
      expiresAt?: string | null;
      scopes?: string[] | null;
    },
    ip: string | null = null,
  ): Promise<{ item: ApiKeyRecord; key: string }> {
    if (input.type !== 'role-based' && input.roleId !== undefined) {
      throw ServiceError.validation([
        { path: 'roleId', code: 'notAllowed', message: 'roleId is only for role-based keys' },
      ]);
    }
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw ServiceError.validation([
        { path: 'expiresAt', code: 'future', message: 'expiresAt must be in the future' },
      ]);
    }
    if (input.type === 'role-based') {
      await this.assertRoleGrantable(auth, input.roleId!);
    }
    const scopes = input.scopes ? [...new Set(input.scopes)] : null;
    if (scopes) {
      await this.assertScopesGranted(auth, input.type, input.roleId ?? null, scopes);
    }
    const key = API_KEY_PREFIX + randomToken();
    const row = await this.db.transaction(async (em) => {
      const created = await this.repo.insert(em, {
        userId: auth.user.id,
        name: input.name,
        description: input.description ?? null,
        type: input.type,
        roleId: input.roleId ?? null,
        hash: sha256Hex(key),
        prefix: key.slice(0, 12),
        expiresAt,
        scopes,
      });
      await this.recordEvent(em, 'api-key-created', auth, created, ip, { type: created.type, scopes });
      return created;
    });
    return { item: toApiKeyRecord(row), key };
  }

  /**
   * A new value for the key (CONTRACTS 14.4): the old one keeps working for `graceSeconds` (0: it
   * stops at once here, within 5 s on other instances, as a revocation), then is refused. A
   * revoked or expired key is not rotated (409).
   */
  async rotate(
    auth: AuthContext,
    id: string,
    graceSeconds: number,
    ip: string | null,
  ): Promise<{ item: ApiKeyRecord; key: string }> {
    await this.own(auth, id);
    const key = API_KEY_PREFIX + randomToken();
    const row = await this.db.transaction(async (em) => {
      const rotated = await this.repo.rotate(em, id, {
        hash: sha256Hex(key),
        prefix: key.slice(0, 12),
        graceSeconds,
      });
      if (rotated) {
        await this.recordEvent(em, 'api-key-rotated', auth, rotated, ip, { graceSeconds });
      }
      return rotated;
    });
    if (!row) {
      throw new ServiceError('CONFLICT', 'A revoked or expired API key cannot be rotated');
    }
    this.invalidate();
    return { item: toApiKeyRecord(row), key };
  }

  async update(
    auth: AuthContext,
    id: string,
    p: { name?: string; description?: string | null },
  ): Promise<ApiKeyRecord> {
    await this.own(auth, id);
    await this.repo.update(this.db.manager, id, p);
    this.invalidate();
    return this.get(auth, id);
  }

  /** Revocation is immediate on this instance and within 5 s elsewhere. */
  async revoke(auth: AuthContext, id: string, ip: string | null = null): Promise<ApiKeyRecord> {
    const row = await this.own(auth, id);
    await this.db.transaction(async (em) => {
      await this.repo.revoke(em, id);
      if (!row.revoked_at) {
        await this.recordEvent(em, 'api-key-revoked', auth, row, ip, {});
      }
    });
    this.invalidate();
    return this.get(auth, id);
  }

  /**
   * `Authorization: Bearer svc_live_...`: the AuthContext of a valid key. Unknown, expired or
   * revoked keys and keys of a deactivated creator are 401 AUTH_INVALID_CREDENTIALS. Permissions
   * are resolved live from the type and the creator's current roles (or the chosen role).
   */
  authenticate(key: string): Awaitable<AuthContext> {
    // Synchronous while the key, its creator and the permission sets are cached (every request
    // of a warm key): no promise is made on the way.
    return andThen(this.byHash(sha256Hex(key)), (row) => {
      if (
        !row ||
        keyStatus(row) !== 'active' ||
        // The value a rotation replaced: only until its grace ends (checked at each use, not cached).
        (!row.by_current &&
          (!row.previous_key_expires_at || new Date(row.previous_key_expires_at).getTime() <= Date.now()))
      ) {
        throw INVALID_KEY();
      }
      return andThen(this.accounts.getAccount(row.user_id), (creator) => {
        if (!creator || !creator.is_active) {
          throw INVALID_KEY();
        }
        // What the key holds, not who made it: a role-based key has its own role; the other types
        // carry no role at all (their permissions derive from the creator's roles, but role checks
        // such as hasRole must never see the creator's, e.g. Super Admin, through a key).
        const keyRoles = row.type === 'role-based' && row.role_id ? [row.role_id] : [];
        const source = row.type === 'role-based' ? keyRoles : creator.roles.map((r) => r.id);
        return andThen(this.rbac.resolve(source), (resolved) =>
          // A super-admin source copies the whole catalogue (so later collections are covered) but
          // a key never bypasses checks: a read-only key still cannot write.
          andThen(resolved.isSuperAdmin ? this.rbac.catalogue() : resolved.permissions, (granted) => {
            let permissions = granted;
            if (row.type === 'read-only') {
              permissions = permissions.filter((p) => p.startsWith('read-'));
            }
            if (row.scopes) {
              // Scopes only narrow: a scope the key's source no longer grants grants nothing.
              const scopes = row.scopes;
              permissions = permissions.filter((p) => scopes.includes(p));
            }
            this.touch(row.id);
            return {
              method: 'api-key',
              user: this.accounts.sessionUser(creator, this.userFields.present(creator.custom), keyRoles),
              roleIds: keyRoles,
              permissions,
              isSuperAdmin: false,
              apiKey: { id: row.id, type: row.type, roleId: row.role_id, scoped: row.scopes !== null },
            };
          }),
        );
      });
    });
  }

  /**
   * The per-key budget (`apiKeys.rateLimit`, in Redis when REDIS_URL is set): X-RateLimit-* on
   * every key-authenticated response, 429 RATE_LIMITED with Retry-After once spent.
   */
  consumeRateLimit(keyId: string, res: Response): Awaitable<void> {
    const { max, windowSeconds } = this.options.config.apiKeys.rateLimit;
    const key = `apikey:${keyId}`;
    const ms = windowSeconds * 1000;
    if (this.counters instanceof MemoryCounterStore) {
      // Counted in this process (no Redis): at once, without a promise per request.
      return this.limit(res, max, this.counters.incrementNow(key, ms, max, ms, 'apikey'));
    }
    return this.counters.increment(key, ms, max, ms, 'apikey').then(
      (record) => this.limit(res, max, record),
      () => {
        // Redis is down: fail closed (a spent key must not get through uncounted). The store logs
        // the outage once; each 503 is logged by the error filter.
        throw countersUnavailable('The API is unavailable for a moment; try again');
      },
    );
  }

  /** X-RateLimit-* from the key's count; 429 once its budget is spent. */
  private limit(res: Response, max: number, record: ThrottlerStorageRecord): void {
    const resetIn = setRateLimitHeaders(res, max, record);
    if (record.isBlocked) {
      throw ServiceError.rateLimited('api-key', 'This API key made too many requests; try again later', {
        retryAfterSeconds: Math.max(1, resetIn),
      });
    }
  }

  private byHash(hash: string): Awaitable<FoundApiKey | null> {
    return this.cache.getOrLoad(hash, () => this.repo.findByHash(this.db.manager, hash));
  }

  private invalidate(): void {
    this.cache.invalidate();
    this.changes?.publish('api-keys');
  }

  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.touched.get(id) ?? 0) < TOUCH_INTERVAL_MS) {
      return;
    }
    if (this.touched.size >= MAX_CACHED_KEYS) {
      this.touched.clear();
    }
    this.touched.set(id, now);
    this.repo
      .touch(this.db.manager, id)
      .catch((e: unknown) => this.logger.warn({ err: e, keyId: id }, 'lastUsedAt not written'));
  }

  private async own(auth: AuthContext, id: string): Promise<ApiKeyRow> {
    const row = await this.repo.findForUser(this.db.manager, auth.user.id, id);
    if (!row) {
      throw new ServiceError('NOT_FOUND', 'No such API key');
    }
    return row;
  }

  /**
   * Each scope must be a permission the key's type grants now (CONTRACTS 14.4): the creator's
   * (read ones only for a read-only key), or the chosen role's.
   */
  private async assertScopesGranted(
    auth: AuthContext,
    type: ApiKeyType,
    roleId: string | null,
    scopes: string[],
  ): Promise<void> {
    const source =
      type === 'role-based'
        ? await this.rbac.resolve(roleId ? [roleId] : [])
        : { isSuperAdmin: auth.isSuperAdmin, permissions: auth.permissions };
    let granted = source.isSuperAdmin ? await this.rbac.catalogue() : source.permissions;
    if (type === 'read-only') {
      granted = granted.filter((p) => p.startsWith('read-'));
    }
    const issues = scopes.flatMap((scope, i) =>
      granted.includes(scope)
        ? []
        : [
            {
              path: `scopes.${i}`,
              code: 'granted',
              message: `a ${type} key of yours does not grant "${scope}"`,
            },
          ],
    );
    if (issues.length) {
      throw ServiceError.validation(issues);
    }
  }

  private recordEvent(
    em: EntityManager,
    event: 'api-key-created' | 'api-key-rotated' | 'api-key-revoked',
    auth: AuthContext,
    row: ApiKeyRow,
    ip: string | null,
    metadata: Record<string, unknown>,
  ): Promise<void> {
    // The key's id and prefix only: never the key or its hash.
    return this.audit.record(
      {
        event,
        actorId: auth.user.id,
        target: `api-key:${row.id}`,
        metadata: { keyPrefix: row.key_prefix, ...metadata },
        ip,
      },
      em,
    );
  }

  /** A role-based key may not grant more than its creator holds (else a key would be an escalation). */
  private async assertRoleGrantable(auth: AuthContext, roleId: string): Promise<void> {
    if (!(await this.rbac.roleSlugs([roleId])).length) {
      throw ServiceError.validation([{ path: 'roleId', code: 'exists', message: 'roleId must name a role' }]);
    }
    if (auth.isSuperAdmin) {
      return;
    }
    const role = await this.rbac.resolve([roleId]);
    if (role.isSuperAdmin || role.permissions.some((p) => !auth.permissions.includes(p))) {
      throw new ServiceError(
        'FORBIDDEN',
        'A role-based key cannot grant permissions its creator does not hold',
      );
    }
  }
}
