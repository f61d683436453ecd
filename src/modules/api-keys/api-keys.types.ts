/** The sort keys of `GET /api-keys` (the controller's list, the repository's columns). */
export type ApiKeySortField = 'name' | 'createdAt' | 'lastUsedAt' | 'expiresAt';
