import type { PermissionRow } from './permissions.repository';

/** The permission record: `{ id, slug, action, resource, name, description, createdAt, updatedAt }`. */
export interface PermissionRecord {
  id: string;
  slug: string;
  action: string;
  resource: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toPermissionRecord(row: PermissionRow): PermissionRecord {
  return {
    id: row.id,
    slug: row.slug,
    action: row.action,
    resource: row.resource,
    name: row.name,
    description: row.description,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
