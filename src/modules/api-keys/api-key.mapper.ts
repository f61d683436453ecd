import type { ApiKeyRow } from './api-keys.repository';

/** The key record of CONTRACTS 5: never the key or its hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  description: string | null;
  type: ApiKeyRow['type'];
  roleId: string | null;
  keyPrefix: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
  /** The permission slugs the key is narrowed to; null: all its type grants. */
  scopes: string[] | null;
  createdAt: string;
  updatedAt: string;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function keyStatus(
  k: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>,
  now = Date.now(),
): ApiKeyRecord['status'] {
  if (k.revoked_at) {
    return 'revoked';
  }
  return k.expires_at && new Date(k.expires_at).getTime() <= now ? 'expired' : 'active';
}

export function toApiKeyRecord(k: ApiKeyRow): ApiKeyRecord {
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    type: k.type,
    roleId: k.role_id,
    keyPrefix: k.key_prefix,
    expiresAt: iso(k.expires_at),
    revokedAt: iso(k.revoked_at),
    lastUsedAt: iso(k.last_used_at),
    status: keyStatus(k),
    scopes: k.scopes,
    createdAt: iso(k.created_at)!,
    updatedAt: iso(k.updated_at)!,
  };
}
