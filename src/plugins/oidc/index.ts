import { Controller, Module, type DynamicModule } from '@nestjs/common';
import { definePlugin, type PluginContext } from '../api';
import { OIDC_MIGRATIONS } from './migrations';
import { OidcProvider } from './oidc.client';
import { OIDC_RUNTIME, OidcRoutes, type OidcRuntime } from './oidc.controller';
import { resolveOidcOptions, type OidcOptions } from './oidc.options';
import { OidcStore } from './oidc.store';

export type { OidcOptions } from './oidc.options';

/** The service's public URL, for the default redirect URI and the cookie's Secure flag. */
function publicUrl(ctx: PluginContext): string {
  return ctx.publicUrl.replace(/\/+$/, '');
}

/**
 * Sign-in with an OpenID Connect provider (CONTRACTS 13.2.1): the authorization code flow with
 * PKCE (S256), state bound to a sealed single-use cookie, nonce and ID token checks by
 * openid-client, accounts linked by (slug, provider subject). Several instances with different
 * slugs may be installed side by side.
 */
export function oidcPlugin(options: OidcOptions) {
  const opts = resolveOidcOptions(options);
  const strategy = `${opts.slug}:oidc`;
  return definePlugin({
    slug: opts.slug,
    version: '1.0.0',
    minServiceVersion: '0.1.0',
    capabilities: ['auth.login'],
    migrations: OIDC_MIGRATIONS,
    ui: {
      providers: [{ strategy, label: opts.label, href: `/admin/api/plugins/${opts.slug}/start` }],
    },
    module: (ctx: PluginContext): DynamicModule => {
      const redirectUri = () =>
        opts.redirectUri ?? `${publicUrl(ctx)}/admin/api/plugins/${opts.slug}/callback`;
      const runtime: OidcRuntime = {
        ctx,
        options: opts,
        provider: new OidcProvider(opts, redirectUri),
        store: new OidcStore(ctx.db, opts.slug),
        secureCookie: () => publicUrl(ctx).startsWith('https:') || redirectUri().startsWith('https:'),
      };
      // A module and controller class per instance: the core mounts each module class at its
      // plugin's path, so two instances must not share one.
      @Controller()
      class OidcInstanceRoutes extends OidcRoutes {}
      @Module({})
      class OidcInstanceModule {}
      const suffix = opts.slug.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
      Object.defineProperty(OidcInstanceRoutes, 'name', { value: `OidcRoutes_${suffix}` });
      Object.defineProperty(OidcInstanceModule, 'name', { value: `OidcModule_${suffix}` });
      return {
        module: OidcInstanceModule,
        controllers: [OidcInstanceRoutes],
        providers: [{ provide: OIDC_RUNTIME, useValue: runtime }],
      };
    },
  });
}
