import { Module } from '@nestjs/common';
import { definePlugin, type PluginContext } from '../api';
import { MagicLinkController } from './magic-link.controller';
import {
  MAGIC_LINK_CONTEXT,
  MAGIC_LINK_OPTIONS,
  resolveMagicLinkOptions,
  type MagicLinkOptions,
} from './magic-link.options';
import { MAGIC_LINK_MIGRATIONS } from './migrations';

export type { MagicLinkOptions } from './magic-link.options';

/** The Nest module the core mounts under `/admin/api/plugins/magic-link/`. */
@Module({})
export class MagicLinkModule {}

/**
 * Sign-in by an emailed single-use link (CONTRACTS 14.5): `POST request { email, next? }` answers
 * the same for every address and emails a link (template `magic-link`) to an account that may
 * sign in; `GET verify?token=` uses the link up and ends with `completeLogin` (strategy
 * `magic-link:email`), so a second factor still applies.
 */
export function magicLinkPlugin(options: MagicLinkOptions = {}) {
  const opts = resolveMagicLinkOptions(options);
  return definePlugin({
    slug: 'magic-link',
    version: '1.0.0',
    minServiceVersion: '0.1.0',
    capabilities: ['auth.login'],
    migrations: MAGIC_LINK_MIGRATIONS,
    // The sign-in page's "email me a link" form (the service's pages draw `component: magic-link`).
    ui: {
      providers: [
        { strategy: 'magic-link:email', label: 'Email me a sign-in link', component: 'magic-link' },
      ],
    },
    module: (ctx: PluginContext) => ({
      module: MagicLinkModule,
      controllers: [MagicLinkController],
      providers: [
        { provide: MAGIC_LINK_CONTEXT, useValue: ctx },
        { provide: MAGIC_LINK_OPTIONS, useValue: opts },
      ],
    }),
  });
}
