import { Module } from '@nestjs/common';
import { definePlugin, type ChallengeResult, type PluginContext } from '../api';
import { TOTP_MIGRATIONS } from './migrations';
import { TotpController } from './totp.controller';
import { resolveTotpOptions, TOTP_CONTEXT, TOTP_OPTIONS, type TotpOptions } from './totp.options';
import { acceptSecondFactor, TotpStore } from './totp.store';

export type { TotpOptions } from './totp.options';

/** The Nest module the core mounts under `/admin/api/plugins/totp/`. */
@Module({})
export class TotpModule {}

/**
 * Time-based one-time passwords (RFC 6238) as a second factor: enrolment with an authenticator
 * app, a `totp` challenge after the password of an enabled account, single-use recovery codes,
 * and an administrator reset.
 */
export function totpPlugin(options: TotpOptions = {}) {
  const opts = resolveTotpOptions(options);
  return definePlugin({
    slug: 'totp',
    version: '1.0.0',
    minServiceVersion: '0.1.0',
    migrations: TOTP_MIGRATIONS,
    secondFactor: {
      isEnrolled: (userId, ctx) => new TotpStore(ctx.db).isEnabled(userId),
      // `POST /auth/reauthenticate { code }`: a current code or an unused recovery code, used up.
      verifyCode: (userId, code, ctx) =>
        acceptSecondFactor(new TotpStore(ctx.db), (s) => ctx.secrets.open(s), userId, code, opts.window),
    },
    hooks: {
      async afterAuthenticate(user, ctx) {
        if (await new TotpStore(ctx.db).isEnabled(user.id)) {
          return { challenge: { id: 'totp', userId: user.id } };
        }
        return undefined;
      },
    },
    challenges: [
      {
        id: 'totp',
        uiHint: 'Enter the 6-digit code from your authenticator app',
        async resolve({ userId, response }, ctx): Promise<ChallengeResult> {
          const code =
            response && typeof response === 'object' ? (response as { code?: unknown }).code : undefined;
          if (typeof code !== 'string' || code.trim() === '') {
            return { ok: false, reason: 'Enter a code from your authenticator app or a recovery code' };
          }
          const store = new TotpStore(ctx.db);
          const ok = await acceptSecondFactor(store, (s) => ctx.secrets.open(s), userId, code, opts.window);
          return ok ? { ok: true } : { ok: false, reason: 'The code is not valid' };
        },
      },
    ],
    ui: {
      challengeViews: {
        totp: { kind: 'code', digits: 6, label: 'Authentication code', recoveryCodes: true },
      },
    },
    module: (ctx: PluginContext) => ({
      module: TotpModule,
      controllers: [TotpController],
      providers: [
        { provide: TOTP_CONTEXT, useValue: ctx },
        { provide: TOTP_OPTIONS, useValue: opts },
      ],
    }),
  });
}
