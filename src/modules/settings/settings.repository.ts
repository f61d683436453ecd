import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';

export interface SettingsRow {
  /** The keys that were set (absent ones answer their defaults). */
  value: Record<string, unknown>;
  /** Whether `value.logoMediaId` still names an entry of the media collection. */
  logo_exists: boolean;
}

/**
 * The one row of `general_settings`. The media collection's table (`c_media`, made at boot by the
 * content module's sync, before any request) is read only to check that a logo id names an entry:
 * no import of the content module, so modules below content (plugins, email) can use settings.
 */
@Injectable()
export class SettingsRepository {
  async read(em: EntityManager): Promise<SettingsRow | null> {
    const found = await rows<SettingsRow>(
      em,
      `SELECT s.value,
              EXISTS (SELECT 1 FROM c_media m WHERE m.id = (s.value->>'logoMediaId')::uuid) AS logo_exists
         FROM general_settings s`,
    );
    return found[0] ?? null;
  }

  /**
   * Sets the given keys and leaves the others as they are, in one statement (concurrent PATCHes
   * of different keys both land): `||` replaces top-level keys, so `custom` is replaced whole.
   */
  async merge(em: EntityManager, patch: Record<string, unknown>, userId: string): Promise<SettingsRow> {
    const found = await rows<SettingsRow>(
      em,
      `INSERT INTO general_settings AS s (id, value, updated_by, updated_at)
       VALUES (true, $1::jsonb, $2, now())
       ON CONFLICT (id) DO UPDATE
         SET value = s.value || EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()
       RETURNING s.value,
                 EXISTS (SELECT 1 FROM c_media m WHERE m.id = (s.value->>'logoMediaId')::uuid) AS logo_exists`,
      [JSON.stringify(patch), userId],
    );
    return found[0];
  }

  async mediaExists(em: EntityManager, id: string): Promise<boolean> {
    const found = await rows<{ found: boolean }>(
      em,
      `SELECT EXISTS (SELECT 1 FROM c_media WHERE id = $1::uuid) AS found`,
      [id],
    );
    return found[0].found;
  }
}
