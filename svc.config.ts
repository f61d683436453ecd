/**
 * Example configuration: every key with its default. The server loads ./svc.config.ts when it
 * exists (or the file named by SVC_CONFIG: .ts, .js, .mjs or .cjs). Every key is optional.
 * In your own project: `import { defineConfig } from 'svc'`.
 */
import { defineConfig } from './src/config/config-file';

export default defineConfig({
  // Code-defined collections: real tables, one typed column per field. Changed only in code.
  collections: [
    // {
    //   slug: 'posts',
    //   labels: { singular: 'Post', plural: 'Posts' },
    //   drafts: true, // Draft/Published; lists over HTTP show published entries only
    //   fields: [
    //     { name: 'title', type: 'text', required: true },
    //     { name: 'body', type: 'richText' },
    //     { name: 'views', type: 'number', index: true },
    //   ],
    //   // Per action: a boolean (true opens it to visitors) or a function of the request context.
    //   access: { read: true },
    // },
  ],

  // Code-defined singles: one document each (site header, footer, ...).
  singles: [],

  // Custom user fields, present on the user record and on the session user.
  users: { fields: [] },

  auth: {
    // Sign-in needs a verified address.
    requireEmailVerification: true,
    // false: /auth/register answers the same whether or not the address exists.
    revealRegistrationConflict: false,
    // App-level credential checkers, run before the always-present password strategy:
    // { name, authenticate({ email, password, request }) => { userId } | null }.
    strategies: [],
    // Live sessions per user; a sign-in beyond it ends the least recently used. Default: unlimited.
    // maxSessions: 10,
    // Who must hold a second factor (needs totpPlugin() or passkeyPlugin(...)). Default: nobody.
    // mfa: { requiredForRoles: ['super-admin'], requiredForAll: false },
    // Days an audit row is kept.
    auditRetentionDays: 365,
    // How long a sign-in (or POST /auth/reauthenticate) opens sensitive changes: passkeys, TOTP,
    // API keys, ending the other sessions.
    reauthWindowSeconds: 600,
  },

  // Per-key budget of API-key requests.
  apiKeys: { rateLimit: { max: 1000, windowSeconds: 3600 } },

  // Per-IP budget shared by the sign-in and account routes (login, register, reset, ...).
  security: { authRateLimit: { max: 30, windowSeconds: 3600 } },

  // Global per-IP limit; requests under /admin/api/ are skipped unless `skip` says otherwise.
  rateLimit: { max: 600, windowSeconds: 60, skip: (req) => req.path.startsWith('/admin/api/') },

  // Express "trust proxy": true, a number of hops, or a list of addresses/subnets. Decides the client IP.
  trustProxy: false,

  // Plugins (definePlugin({...}), docs/plugins.md): sign-in hooks, second factors, login-page
  // buttons. The shipped TOTP second factor: plugins: [totpPlugin()] (import { totpPlugin }).
  plugins: [],
});
