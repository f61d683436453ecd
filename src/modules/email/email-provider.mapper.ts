import { PASSWORD_MASK } from './email.constants';
import type { ProviderRow } from './email-providers.repository';

/** The provider record of CONTRACTS 7: the password is never answered, only whether one is set. */
export interface EmailProviderRecord {
  id: string;
  name: string;
  type: 'smtp';
  fromEmail: string;
  fromName: string | null;
  config: { host: string; port: number; secure: boolean; user: string | null; password: string | null };
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toEmailProviderRecord(row: ProviderRow): EmailProviderRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    fromEmail: row.from_email,
    fromName: row.from_name,
    config: {
      host: row.config.host,
      port: row.config.port,
      secure: row.config.secure === true,
      user: row.config.user ?? null,
      password: row.password_enc ? PASSWORD_MASK : null,
    },
    isDefault: row.is_default,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
