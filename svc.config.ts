/**
 * Example configuration: every key with its default (test/unit/config-example.spec.ts keeps it
 * so). The server loads ./svc.config.ts when it exists (or the file named by SVC_CONFIG: .ts,
 * .js, .mjs or .cjs). Every key is optional: leave out the ones you do not change.
 * In your own project: `import { defineConfig } from 'svc'`.
 */
import { defineConfig } from './src/config/config-file';

export default defineConfig({
  // Code-defined collections: real tables, one typed column per field, changed only in code. E.g.
  // { slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text', required: true }], access: { read: true } }
  // Each may also set `versions` (true: keep the newest 50 versions of each entry; { max: n }, 1 to 1000;
  // default false) and `preview: { url: 'https://site.example/preview/{slug}/{id}?token={token}' }`
  // (the front-end page a preview token opens; {token} is required).
  collections: [],

  // Code-defined singles: one document each (site header, footer, ...); `versions` and `preview` as above.
  singles: [],

  users: {
    // Custom user fields, present on the user record and on the session user.
    fields: [],
  },

  auth: {
    // Sign-in needs a verified address.
    requireEmailVerification: true,
    // false: /auth/register answers the same whether or not the address exists.
    revealRegistrationConflict: false,
    // App-level checkers run before the password strategy: { name, authenticate({ email, password, request }) }.
    strategies: [],
    // Live sessions per user (a positive integer); a sign-in beyond it ends the least recently used. null: no limit.
    maxSessions: null,
    // Days an audit row is kept; older rows are purged hourly.
    auditRetentionDays: 365,
    mfa: {
      // Role slugs whose holders must have a second factor (needs totpPlugin() or passkeyPlugin(...)).
      requiredForRoles: [],
      // Every user must have a second factor.
      requiredForAll: false,
    },
    // Seconds a sign-in (or POST /auth/reauthenticate) opens sensitive changes: passkeys, TOTP, API keys.
    reauthWindowSeconds: 600,
  },

  apiKeys: {
    // Per-key budget of API-key requests.
    rateLimit: { max: 1000, windowSeconds: 3600 },
  },

  security: {
    // Per-IP budget shared by the sign-in and account routes (login, register, reset, ...).
    authRateLimit: { max: 30, windowSeconds: 3600 },
  },

  // Global per-IP limit; `skip` says which requests it ignores (by default those under /admin/api/).
  rateLimit: { max: 600, windowSeconds: 60, skip: (req) => req.path.startsWith('/admin/api/') },

  // Express "trust proxy": true, a number of hops, or a list of addresses/subnets. Decides the client IP.
  trustProxy: false,

  // Plugins (definePlugin({...}), docs/plugins.md): sign-in hooks, second factors, login-page buttons.
  plugins: [],

  // Outbound webhooks (docs/webhooks.md).
  webhooks: {
    // true: endpoints may be on private, loopback and link-local addresses (refused by default).
    allowPrivateNetworks: false,
    retry: {
      // Attempts per delivery, the first included (1 to 25).
      attempts: 8,
      // After the n-th failed attempt the next waits baseDelayMs * 2^(n-1), ±20% (at most 6 hours).
      baseDelayMs: 10000,
    },
    // Deliveries failed in a row that disable an endpoint.
    disableAfterFailures: 20,
    // How long one attempt may take, connecting and reading the answer included (at most 15000).
    timeoutMs: 10000,
  },
});
