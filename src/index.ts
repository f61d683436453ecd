/** Library entry: what a host application or a config file imports from the package root. */
export { SvcModule } from './svc.module';
export type { SvcModuleAsyncOptions } from './svc.module';
export type { SvcModuleOptions } from './config/svc-options';
export type { MediaOptions, S3MediaOptions } from './config/media-options';
export { defineConfig } from './config/config-file';
export type * from './config/config.types';
export { ServiceError } from './common/errors/service-error';
export { pendingTokenOf } from './common/pending-token';
export type { ErrorCode } from './common/errors/error-codes';
export { configureApp } from './app.setup';
export { startServer } from './server';
export { HealthService } from './modules/health/health.service';
export { LimitedExpressAdapter } from './http-server';
export { getSession, requireAuth, hasRole, hasAnyRole, hasAllRoles, login } from './modules/auth/in-process';
export type { Session } from './modules/auth/in-process';
export { Public } from './common/access/public.decorator';
export { RequirePermission, CookieOnly, CurrentAuth } from './common/access/auth.decorators';
export type { AuthContext } from './common/access/auth-context';
export { seedSuperAdmin } from './modules/accounts/seed-admin';
export { definePlugin } from './modules/plugins/define-plugin';
export type * from './modules/plugins/plugin.types';
export { MFA_ENROL } from './modules/plugins/plugin.types';
export { totpPlugin } from './plugins/totp';
export type { TotpOptions } from './plugins/totp';
export { oidcPlugin, type OidcOptions } from './plugins/oidc';
export { passkeyPlugin, type PasskeyOptions } from './plugins/passkeys';
export { formBuilderPlugin, type FormBuilderOptions } from './plugins/form-builder';
export { magicLinkPlugin, type MagicLinkOptions } from './plugins/magic-link';
// Plugins describe their answers in the OpenAPI document with @nestjs/swagger and these helpers.
export {
  namedSchema,
  objectSchema,
  itemAnswer,
  listOf,
  schemaRef,
  MESSAGE_ANSWER,
  STRING,
  NULLABLE_STRING,
  BOOLEAN,
  INTEGER,
  DATE_TIME,
  NULLABLE_DATE_TIME,
  UUID,
  ANY,
  type JsonSchema,
} from './common/api-schema';
