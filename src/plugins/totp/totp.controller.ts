import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiOkResponse } from '@nestjs/swagger';
import QRCode from 'qrcode';
import {
  CurrentAuth,
  MESSAGE_ANSWER,
  RequirePermission,
  ServiceError,
  type AuthContext,
  type EnrolmentClaim,
  type PluginContext,
  type PluginDb,
} from '../api';
import { generateRecoveryCodes, hashRecoveryCode, matchStep, newSecret, otpauthUrl } from './totp.codes';
import { TOTP_CONFIRMATION_ANSWER, TOTP_ENROLMENT, TOTP_STATUS } from './totp.openapi';
import { TOTP_CONTEXT, TOTP_OPTIONS, type ResolvedTotpOptions } from './totp.options';
import { acceptSecondFactor, TotpStore } from './totp.store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A person signed in with the session cookie or a Bearer access token; never an API key. */
function signedIn(auth: AuthContext | undefined): AuthContext {
  if (!auth || auth.method === 'api-key') {
    throw new ServiceError('AUTH_REQUIRED', 'Sign in first');
  }
  return auth;
}

/** The `code` of the body, or 400 VALIDATION_ERROR. */
function codeOf(body: unknown): string {
  const code = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || code.trim() === '') {
    throw ServiceError.validation([
      { path: 'code', code: 'required', message: 'Enter a code from your authenticator app' },
    ]);
  }
  return code;
}

const WRONG_CODE = () => new ServiceError('INVALID_INPUT', 'The code is not valid');

/** Mounted under `/admin/api/plugins/totp/`. */
@Controller()
export class TotpController {
  constructor(
    @Inject(TOTP_CONTEXT) private readonly ctx: PluginContext,
    @Inject(TOTP_OPTIONS) private readonly options: ResolvedTotpOptions,
  ) {}

  /** The configured issuer, else the site's name (a ":" would split the label), else `svc`. */
  private async issuer(): Promise<string> {
    if (this.options.issuer) {
      return this.options.issuer;
    }
    const siteName = (await this.ctx.settings.get()).siteName.replace(/:/g, ' ').trim();
    return siteName || 'svc';
  }

  private store(): TotpStore {
    return new TotpStore(this.ctx.db);
  }

  @Get('status')
  @ApiOkResponse({ schema: TOTP_STATUS })
  async status(@CurrentAuth() auth: AuthContext | undefined) {
    const user = signedIn(auth).user;
    return this.store().status(user.id);
  }

  /**
   * Who enrols: the user of an `mfa-enrol` pending login (its token in the body or the
   * `svc_pending` cookie; a voided step is refused), who may use only these routes; or the caller
   * of a browser session with a recent sign-in (a sensitive change, CONTRACTS 14.6).
   */
  private async enrollee(
    auth: AuthContext | undefined,
    req: Request,
    body: unknown,
  ): Promise<{ id: string; email: string; pendingToken?: string }> {
    const enrolling = auth && auth.method !== 'api-key' ? null : await this.ctx.auth.enrolment(req, body);
    if (enrolling) {
      return { ...enrolling.user, pendingToken: enrolling.pendingToken };
    }
    const user = signedIn(auth).user;
    await this.ctx.auth.requireRecentSignIn(auth);
    return user;
  }

  @Post('enroll')
  @HttpCode(200)
  @ApiOkResponse({ schema: TOTP_ENROLMENT })
  @Header('Cache-Control', 'no-store')
  async enroll(@CurrentAuth() auth: AuthContext | undefined, @Req() req: Request, @Body() body: unknown) {
    const user = await this.enrollee(auth, req, body);
    const secret = newSecret();
    if (!(await this.store().startEnrolment(user.id, this.ctx.secrets.seal(secret)))) {
      throw new ServiceError('CONFLICT', 'Two-factor authentication is enabled already; disable it first');
    }
    const url = otpauthUrl(await this.issuer(), user.email, secret);
    const qrSvg = await QRCode.toString(url, { type: 'svg' });
    return { secret, otpauthUrl: url, qrSvg };
  }

  /** The first code proves the app holds the secret: TOTP is on; the recovery codes are shown once. */
  @Post('enroll/confirm')
  @HttpCode(200)
  @ApiOkResponse({ schema: TOTP_CONFIRMATION_ANSWER })
  @Header('Cache-Control', 'no-store')
  async confirm(
    @CurrentAuth() auth: AuthContext | undefined,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const user = await this.enrollee(auth, req, body);
    const code = codeOf(body);
    const store = this.store();
    const factor = await store.find(user.id);
    if (!factor) {
      throw new ServiceError('CONFLICT', 'There is no enrolment to confirm; start one first');
    }
    if (factor.confirmed) {
      throw new ServiceError('CONFLICT', 'Two-factor authentication is enabled already');
    }
    const step = matchStep(this.ctx.secrets.open(factor.secretSealed), code, {
      window: this.options.window,
      lastStep: factor.lastStep,
    });
    if (step === null) {
      throw WRONG_CODE();
    }
    const recoveryCodes = generateRecoveryCodes(this.options.recoveryCodes);
    let claim: EnrolmentClaim | undefined;
    const enrolled = async (tx: PluginDb) => {
      // The sign-in's enrolment step is used up in the transaction that saves the factor: a step
      // voided meanwhile (password write, deactivation, end of all sessions) saves nothing.
      if (user.pendingToken) {
        claim = await this.ctx.auth.claimEnrolment(user.pendingToken, tx);
      }
      await this.ctx.audit.record(
        { event: 'mfa-enrolled', actorId: user.id, userId: user.id, metadata: { factor: 'totp' } },
        tx,
      );
    };
    if (
      !(await store.confirm(
        user.id,
        step,
        factor.secretSealed,
        recoveryCodes.map(hashRecoveryCode),
        enrolled,
      ))
    ) {
      throw WRONG_CODE();
    }
    this.ctx.logger.info({ userId: user.id }, 'two-factor authentication enabled');
    const message = 'Two-factor authentication enabled; keep the recovery codes somewhere safe';
    if (!claim) {
      return { message, recoveryCodes };
    }
    // The enrolment a sign-in waited for (CONTRACTS 14.2): it goes on, to the session.
    const outcome = await this.ctx.auth.finishEnrolment(claim, { request: req, response: res });
    return 'session' in outcome
      ? { message, ...outcome.session, recoveryCodes }
      : { status: 'challenge', ...outcome.challenge, recoveryCodes };
  }

  /** Turns TOTP off with a current code or an unused recovery code. */
  @Post('disable')
  @HttpCode(200)
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async disable(@CurrentAuth() auth: AuthContext | undefined, @Body() body: unknown, @Req() req: Request) {
    const user = signedIn(auth).user;
    const code = codeOf(body);
    await this.ctx.auth.requireRecentSignIn(auth);
    if (!(await this.store().isEnabled(user.id))) {
      throw new ServiceError('CONFLICT', 'Two-factor authentication is not enabled');
    }
    // Counted toward the account's code limit, whatever the IP (CONTRACTS 14.6).
    const done = await this.ctx.limits.secondFactor(
      user.id,
      () =>
        this.ctx.db.transaction(async (tx) => {
          const store = new TotpStore(tx);
          if (
            !(await acceptSecondFactor(
              store,
              (s) => this.ctx.secrets.open(s),
              user.id,
              code,
              this.options.window,
            ))
          ) {
            return false;
          }
          await store.remove(user.id);
          await this.ctx.audit.record(
            { event: 'mfa-disabled', actorId: user.id, userId: user.id, metadata: { factor: 'totp' } },
            tx,
          );
          return true;
        }),
      req,
    );
    if (!done) {
      throw WRONG_CODE();
    }
    this.ctx.logger.info({ userId: user.id }, 'two-factor authentication disabled');
    return { message: 'Two-factor authentication disabled' };
  }

  /** Clears a user's second factor (a lost device); the users routes' super-admin rules apply. */
  @Delete('users/:id')
  @RequirePermission('update-users')
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async reset(@CurrentAuth() auth: AuthContext | undefined, @Param('id') id: string) {
    if (!auth) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in first');
    }
    if (!UUID.test(id)) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    const userId = id.toLowerCase();
    await this.ctx.users.assertManageable(auth, userId);
    const removed = await this.ctx.db.transaction(async (tx) => {
      const gone = await new TotpStore(tx).remove(userId);
      if (gone) {
        await this.ctx.audit.record(
          { event: 'mfa-disabled', actorId: auth.user.id, userId, metadata: { factor: 'totp', reset: true } },
          tx,
        );
      }
      return gone;
    });
    this.ctx.logger.info({ userId, by: auth.user.id, removed }, 'two-factor authentication reset');
    return {
      message: removed
        ? 'Two-factor authentication reset; the user signs in with the password alone'
        : 'The user had no second factor',
    };
  }
}
