import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthContext } from '../../common/access/auth-context';
import { TtlCache } from '../../common/cache';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION } from '../../config/svc-options';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import { readSettingsPatch } from './settings-input';
import { SettingsRepository, type SettingsRow } from './settings.repository';
import { DEFAULT_GENERAL_SETTINGS, GENERAL_SETTINGS_KEYS, type GeneralSettings } from './settings.types';
import { ChangeBus } from '../cluster/change-bus.service';

export type { GeneralSettings } from './settings.types';
export { DEFAULT_GENERAL_SETTINGS } from './settings.types';

/**
 * How long a read of the settings is used. Bound on staleness: a write on this instance clears
 * the cache before it answers (the next read is exact); a write on another instance is seen here
 * within SETTINGS_TTL_MS (5 s). The deletion of the logo's media entry too.
 */
export const SETTINGS_TTL_MS = 5000;

const KEY = 'general';

/**
 * The general settings (site name, description, URL, logo, time zone, date format, custom JSON):
 * one row, cached in process. `get()` is what other modules read (the TOTP issuer defaults to
 * `siteName`); it answers a frozen object, so no caller can change the cached copy.
 */
@Injectable()
export class SettingsService {
  private readonly cache = new TtlCache<typeof KEY, GeneralSettings>({
    max: 1,
    ttlMs: SETTINGS_TTL_MS,
    name: 'settings',
  });

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: SettingsRepository,
    private readonly audit: AuditService,
    @Optional() @Inject(ChangeBus) private readonly changes: ChangeBus | null,
  ) {
    changes?.on('settings', () => this.cache.invalidate());
  }

  /** The current settings, every key present (defaults for those never set). */
  async get(): Promise<GeneralSettings> {
    return this.cache.getOrLoad(KEY, async () => present(await this.repo.read(this.db.manager)));
  }

  /**
   * A partial update: absent keys keep their values, `custom` is replaced whole. Audited as
   * `settings-changed` (CONTRACTS 14.3: the keys sent, never their values). An empty body changes nothing.
   */
  async update(body: Record<string, unknown>, auth: AuthContext): Promise<GeneralSettings> {
    const patch = readSettingsPatch(body);
    const keys = Object.keys(patch);
    if (!keys.length) {
      return this.get();
    }
    const row = await this.db.transaction(async (em) => {
      if (patch.logoMediaId && !(await this.repo.mediaExists(em, patch.logoMediaId))) {
        throw ServiceError.validation(
          [{ path: 'logoMediaId', code: 'notFound', message: 'logoMediaId names no media entry' }],
          'The general settings are not valid',
        );
      }
      const merged = await this.repo.merge(em, patch, auth.user.id);
      await this.audit.record(
        {
          event: AUDIT_EVENTS.settingsChanged,
          actorId: auth.user.id,
          target: 'settings:general',
          metadata: { keys },
        },
        em,
      );
      return merged;
    });
    this.cache.invalidate();
    this.changes?.publish('settings');
    return present(row);
  }
}

/** The stored keys over the defaults (unknown stored keys are ignored), frozen. */
function present(row: SettingsRow | null): GeneralSettings {
  const stored = row?.value ?? {};
  const out: Record<string, unknown> = {};
  for (const key of GENERAL_SETTINGS_KEYS) {
    out[key] = Object.hasOwn(stored, key) ? stored[key] : DEFAULT_GENERAL_SETTINGS[key];
  }
  if (out.logoMediaId !== null && !row?.logo_exists) {
    out.logoMediaId = null;
  }
  return deepFreeze(out) as unknown as GeneralSettings;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) {
      deepFreeze(child);
    }
  }
  return value;
}
