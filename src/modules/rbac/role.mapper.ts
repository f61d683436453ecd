import type { RoleRow } from './roles.repository';

/** The role record of CONTRACTS 4: `permissions` are the role's own rows (not inherited ones). */
export interface RoleRecord {
  id: string;
  name: string;
  slug: string;
  level: number;
  description: string | null;
  isSystem: boolean;
  permissions: Array<{ id: string; slug: string }>;
  createdAt: string;
  updatedAt: string;
}

export function toRoleRecord(row: RoleRow): RoleRecord {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    level: row.level,
    description: row.description,
    isSystem: row.is_system,
    permissions: row.permissions.map((p) => ({ id: p.id, slug: p.slug })),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
