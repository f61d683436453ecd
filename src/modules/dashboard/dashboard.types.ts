/** `GET /admin/api/dashboard/stats`. */
export interface DashboardStats {
  /** Collections the caller may read (the media collection is under `media`). */
  collections: CollectionStats[];
  /** Null without `read-users` (nor super-admin). */
  users: { total: number; active: number } | null;
  /** Null when the caller may not read the media collection. */
  media: { total: number; bytes: number } | null;
}

export interface CollectionStats {
  slug: string;
  label: string;
  /** Entries the caller may list with `status=all` (published only without draft access). */
  total: number;
  published: number;
  /** Drafts; 0 on a collection without drafts; null when the caller may not see drafts. */
  drafts: number | null;
}

/** An item of `GET /admin/api/dashboard/recent-entries`. */
export interface RecentEntry {
  collection: string;
  id: string;
  title: string | null;
  /** `published` or `draft`; null on a collection without drafts. */
  status: 'published' | 'draft' | null;
  updatedAt: Date;
}

/** An item of `GET /admin/api/dashboard/activity`: never the IP nor the metadata of the row. */
export interface ActivityItem {
  id: string;
  event: string;
  actor: { id: string; name: string } | null;
  target: string | null;
  createdAt: Date;
}
