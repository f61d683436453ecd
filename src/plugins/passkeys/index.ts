import { Module } from '@nestjs/common';
import { definePlugin, type ChallengeResult, type PluginContext, type PluginDefinition } from '../api';
import { PASSKEY_MIGRATIONS } from './migrations';
import { PasskeyCeremonies } from './passkeys.ceremonies';
import { PASSKEY_CHALLENGE, PasskeyController } from './passkeys.controller';
import {
  PASSKEY_CONTEXT,
  PASSKEY_OPTIONS,
  resolvePasskeyOptions,
  type PasskeyOptions,
} from './passkeys.options';
import { PasskeyStore } from './passkeys.store';

export type { PasskeyOptions } from './passkeys.options';

/** The Nest module the core mounts under `/admin/api/plugins/passkeys/`. */
@Module({})
export class PasskeyModule {}

const UI_HINT = 'Confirm with your passkey';

/**
 * WebAuthn passkeys (CONTRACTS 13.2.3): registration for signed-in users, a `passkey` second
 * factor after the password of an account holding one, and passwordless sign-in with a
 * discoverable credential. User verification is always required.
 */
export function passkeyPlugin(options: PasskeyOptions) {
  const opts = resolvePasskeyOptions(options);
  const definition: PluginDefinition = {
    slug: 'passkeys',
    version: '1.0.0',
    minServiceVersion: '0.1.0',
    capabilities: opts.passwordless ? ['auth.login'] : [],
    migrations: PASSKEY_MIGRATIONS,
    ui: {
      providers: opts.passwordless
        ? [{ strategy: 'passkeys:webauthn', label: 'Sign in with a passkey', component: 'passkey-login' }]
        : [],
      challengeViews: opts.secondFactor
        ? {
            [PASSKEY_CHALLENGE]: {
              kind: 'webauthn',
              optionsUrl: '/admin/api/plugins/passkeys/challenge/options',
              responseField: 'assertion',
            },
          }
        : {},
    },
    module: (ctx: PluginContext) => ({
      module: PasskeyModule,
      controllers: [PasskeyController],
      providers: [
        { provide: PASSKEY_CONTEXT, useValue: ctx },
        { provide: PASSKEY_OPTIONS, useValue: opts },
      ],
    }),
  };
  if (opts.secondFactor) {
    definition.secondFactor = {
      isEnrolled: (userId, ctx) => new PasskeyStore(ctx.db).hasCredentials(userId),
    };
    definition.hooks = {
      async afterAuthenticate(user, ctx) {
        if (await new PasskeyStore(ctx.db).hasCredentials(user.id)) {
          return { challenge: { id: PASSKEY_CHALLENGE, userId: user.id } };
        }
        return undefined;
      },
    };
    definition.challenges = [
      {
        id: PASSKEY_CHALLENGE,
        uiHint: UI_HINT,
        resolve({ userId, response }, ctx): Promise<ChallengeResult> {
          return new PasskeyCeremonies(ctx, opts).verifySecondFactor(userId, response);
        },
      },
    ];
  }
  return definePlugin(definition);
}
