import type { Request } from 'express';

/** The config object of CONTRACTS 2. Every key is optional; defaults are applied by `resolveConfig`. */
export type FieldType =
  | 'text'
  | 'textarea'
  | 'email'
  | 'number'
  | 'checkbox'
  | 'date'
  | 'select'
  | 'json'
  | 'richText'
  | 'relationship'
  | 'upload'
  | 'component';

export interface FieldConfig {
  name: string;
  type: FieldType;
  label?: string;
  required?: boolean;
  unique?: boolean;
  index?: boolean;
  defaultValue?: unknown;
  options?: Array<string | { label: string; value: string }>;
  /** The smallest value an entry may hold (number fields only; checked by entry validation). */
  min?: number;
  /** The largest value an entry may hold (number fields only; checked by entry validation). */
  max?: number;
  hasMany?: boolean;
  relationTo?: string;
  fieldGroup?: string;
  repeatable?: boolean;
}

export type AccessRule = boolean | ((ctx: AccessContext) => boolean | Promise<boolean>);

export interface AccessContext {
  user: unknown;
  auth: unknown;
  action: 'read' | 'create' | 'update' | 'delete';
  req: Request;
}

export interface CollectionConfig {
  slug: string;
  labels?: { singular: string; plural: string };
  fields: FieldConfig[];
  drafts?: boolean;
  access?: Partial<Record<'read' | 'create' | 'update' | 'delete', AccessRule>>;
  /** Keep a version of each entry at every write: `true` keeps the newest 50. */
  versions?: boolean | { max: number };
  /** The front-end page a preview token opens: `{slug}`, `{id}` and `{token}` are filled in. */
  preview?: { url: string };
}

export interface SingleConfig {
  slug: string;
  label?: string;
  fields: FieldConfig[];
  drafts?: boolean;
  access?: Partial<Record<'read' | 'update', AccessRule>>;
  /** Keep a version of the single at every write: `true` keeps the newest 50. */
  versions?: boolean | { max: number };
  /** The front-end page a preview token opens: `{slug}`, `{id}` and `{token}` are filled in. */
  preview?: { url: string };
}

/**
 * An app-level credential checker (SPEC 5.7.8), run by `POST /auth/login` before the password
 * strategy, in list order: the first that names a user signs that user in (through the account
 * gate and the login hooks); `null` passes to the next. The password lockout never applies to it.
 */
export interface Strategy {
  /** `^[a-z][a-z0-9:_-]{0,63}$`, unique, not `password`: audit rows name it. */
  name: string;
  authenticate(input: {
    email: string;
    password: string;
    request: Request;
  }): { userId: string } | null | undefined | Promise<{ userId: string } | null | undefined>;
}

export interface RateLimitConfig {
  max: number;
  windowSeconds: number;
}

export interface SvcConfig {
  collections?: CollectionConfig[];
  singles?: SingleConfig[];
  users?: { fields?: FieldConfig[] };
  auth?: {
    requireEmailVerification?: boolean;
    revealRegistrationConflict?: boolean;
    strategies?: Strategy[];
    /**
     * Live sessions one user may hold (CONTRACTS 14.1); a sign-in beyond ends the least recently
     * used. null (the default): no limit.
     */
    maxSessions?: number | null;
    /** Days an audit row is kept (CONTRACTS 14.3); older rows are purged by a job. Default 365. */
    auditRetentionDays?: number;
    /** Second factor required (CONTRACTS 14.2): for the holders of these role slugs, or for everyone. */
    mfa?: { requiredForRoles?: string[]; requiredForAll?: boolean };
    /**
     * How long a proof of a factor (signing in, `POST /auth/reauthenticate`) opens sensitive
     * changes (passkeys, TOTP, API keys, ending other sessions). Default 600.
     */
    reauthWindowSeconds?: number;
  };
  apiKeys?: { rateLimit?: RateLimitConfig };
  security?: { authRateLimit?: RateLimitConfig };
  rateLimit?: RateLimitConfig & { skip?: (req: Request) => boolean };
  trustProxy?: boolean | number | string;
  plugins?: unknown[];
  /** Outbound webhooks: where an attempt may connect, its retries and timeout, when an endpoint is disabled. */
  webhooks?: {
    /** Lets endpoints be on private, loopback and link-local addresses (refused by default). */
    allowPrivateNetworks?: boolean;
    /** `attempts` counts every attempt, the first included; the n-th retry waits `baseDelayMs * 2^(n-1)`, ±20%. */
    retry?: { attempts?: number; baseDelayMs?: number };
    /** Deliveries failed in a row that disable an endpoint. */
    disableAfterFailures?: number;
    /** How long one attempt may take, connection and answer included. */
    timeoutMs?: number;
  };
}

/** The config with every default filled in: what the rest of the service reads. */
export interface ResolvedConfig {
  collections: CollectionConfig[];
  singles: SingleConfig[];
  users: { fields: FieldConfig[] };
  auth: {
    requireEmailVerification: boolean;
    revealRegistrationConflict: boolean;
    strategies: Strategy[];
    /** null: unlimited. */
    maxSessions: number | null;
    auditRetentionDays: number;
    mfa: { requiredForRoles: string[]; requiredForAll: boolean };
    reauthWindowSeconds: number;
  };
  apiKeys: { rateLimit: RateLimitConfig };
  security: { authRateLimit: RateLimitConfig };
  rateLimit: RateLimitConfig & { skip: (req: Request) => boolean };
  trustProxy: boolean | number | string;
  plugins: unknown[];
  webhooks: {
    allowPrivateNetworks: boolean;
    retry: { attempts: number; baseDelayMs: number };
    disableAfterFailures: number;
    timeoutMs: number;
  };
}
