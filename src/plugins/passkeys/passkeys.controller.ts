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
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  CurrentAuth,
  listOf,
  pendingTokenOf,
  MESSAGE_ANSWER,
  ServiceError,
  type AuthContext,
  type PluginContext,
} from '../api';
import { PasskeyCeremonies } from './passkeys.ceremonies';
import {
  CREATION_OPTIONS,
  LOGIN_OPTIONS,
  PASSKEY,
  REGISTERED_ANSWER,
  REQUEST_OPTIONS,
} from './passkeys.openapi';
import { PASSKEY_CONTEXT, PASSKEY_OPTIONS, type ResolvedPasskeyOptions } from './passkeys.options';
import { PasskeyStore, toItem } from './passkeys.store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The challenge type of the second factor (`afterAuthenticate`, `challenges[]`). */
export const PASSKEY_CHALLENGE = 'passkey';
/** Per IP and route, for the routes anyone may call. */
const VISITOR_BUDGET = { max: 60, windowSeconds: 60 };
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 500;

/** A person signed in with the session cookie or a Bearer access token; never an API key. */
function signedIn(auth: AuthContext | undefined): AuthContext {
  if (!auth || auth.method === 'api-key') {
    throw new ServiceError('AUTH_REQUIRED', 'Sign in first');
  }
  return auth;
}

function positiveInt(value: unknown, path: string): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || !/^[0-9]{1,10}$/.test(value) || Number(value) < 1) {
    throw ServiceError.validation([{ path, code: 'isInt', message: `${path} must be a positive integer` }]);
  }
  return Number(value);
}

const notFound = () => new ServiceError('NOT_FOUND', 'Not found');

/** Mounted under `/admin/api/plugins/passkeys/` (CONTRACTS 13.2.3). */
@Controller()
export class PasskeyController {
  private readonly ceremonies: PasskeyCeremonies;

  constructor(
    @Inject(PASSKEY_CONTEXT) private readonly ctx: PluginContext,
    @Inject(PASSKEY_OPTIONS) private readonly options: ResolvedPasskeyOptions,
  ) {
    this.ceremonies = new PasskeyCeremonies(ctx, options);
  }

  private visitorBudget(route: string, req: Request, res: Response): Promise<void> {
    return this.ctx.limits.consume(`${route}:${req.ip ?? 'unknown'}`, VISITOR_BUDGET, res);
  }

  @Post('register/options')
  @HttpCode(200)
  @ApiOkResponse({ schema: CREATION_OPTIONS })
  @Header('Cache-Control', 'no-store')
  async registerOptions(
    @CurrentAuth() auth: AuthContext | undefined,
    @Req() req: Request,
    @Body() body: unknown,
  ) {
    return this.ceremonies.registrationOptions(await this.registrant(auth, req, body));
  }

  @Post('register/verify')
  @HttpCode(201)
  @ApiCreatedResponse({ schema: REGISTERED_ANSWER })
  async registerVerify(
    @CurrentAuth() auth: AuthContext | undefined,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const user = await this.registrant(auth, req, body);
    const { item, claim } = await this.ceremonies.register(user, body);
    if (!claim) {
      return { message: 'Passkey registered', item };
    }
    // The enrolment a sign-in waited for (CONTRACTS 14.2): it goes on, to the session.
    const outcome = await this.ctx.auth.finishEnrolment(claim, { request: req, response: res });
    return 'session' in outcome
      ? { message: 'Passkey registered', item, ...outcome.session }
      : { status: 'challenge', item, ...outcome.challenge };
  }

  /**
   * Who registers a passkey: the user of an `mfa-enrol` pending login (CONTRACTS 14.2, with
   * `secondFactor`; its token in the body or the `svc_pending` cookie; a voided step is refused),
   * or the caller of a browser session with a recent sign-in (a sensitive change, CONTRACTS 14.6:
   * a stolen Bearer token cannot add a passkey).
   */
  private async registrant(
    auth: AuthContext | undefined,
    req: Request,
    body: unknown,
  ): Promise<{ id: string; email: string; name: string; pendingToken?: string }> {
    const enrolling =
      (auth && auth.method !== 'api-key') || !this.options.secondFactor
        ? null
        : await this.ctx.auth.enrolment(req, body);
    if (enrolling) {
      return { ...enrolling.user, pendingToken: enrolling.pendingToken };
    }
    const user = signedIn(auth).user;
    await this.ctx.auth.requireRecentSignIn(auth);
    return user;
  }

  @Get('credentials')
  @ApiOkResponse({ schema: listOf(PASSKEY) })
  async list(@CurrentAuth() auth: AuthContext | undefined, @Query() query: Record<string, unknown>) {
    const user = signedIn(auth).user;
    const page = positiveInt(query.page, 'page') ?? 1;
    const limit = Math.min(positiveInt(query.limit, 'limit') ?? DEFAULT_LIMIT, MAX_LIMIT);
    const { total, items } = await this.ceremonies.store().page(user.id, limit, (page - 1) * limit);
    const totalPages = Math.ceil(total / limit);
    return {
      items: items.map(toItem),
      meta: { total, page, limit, totalPages, hasNext: page < totalPages, hasPrev: page > 1 },
    };
  }

  @Delete('credentials/:id')
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async remove(@CurrentAuth() auth: AuthContext | undefined, @Param('id') id: string) {
    const user = signedIn(auth).user;
    const passkeyId = id.toLowerCase();
    const removed =
      UUID.test(id) &&
      (await this.ctx.db.transaction(async (tx) => {
        const gone = await new PasskeyStore(tx).remove(user.id, passkeyId);
        if (gone && this.options.secondFactor) {
          await this.ctx.audit.record(
            {
              event: 'mfa-disabled',
              actorId: user.id,
              userId: user.id,
              metadata: { factor: 'passkey', passkeyId },
            },
            tx,
          );
        }
        return gone;
      }));
    if (!removed) {
      throw new ServiceError('NOT_FOUND', 'No such passkey');
    }
    this.ctx.logger.info({ userId: user.id, passkeyId: id.toLowerCase() }, 'passkey removed');
    return { message: 'Passkey removed' };
  }

  /**
   * Request options for a login paused at the `passkey` challenge; the pending token in the body
   * or the `svc_pending` cookie.
   */
  @Post('challenge/options')
  @HttpCode(200)
  @ApiOkResponse({ schema: REQUEST_OPTIONS })
  @Header('Cache-Control', 'no-store')
  async challengeOptions(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() body: unknown,
  ) {
    if (!this.options.secondFactor) {
      throw notFound();
    }
    await this.visitorBudget('challenge', req, res);
    const token = pendingTokenOf(req, body) ?? '';
    const spent = () =>
      new ServiceError('AUTH_INVALID_CREDENTIALS', 'This sign-in step is not valid any more; sign in again');
    if (!token || token.length > 4096) {
      throw spent();
    }
    const step = await this.ctx.auth.pendingChallenge(token);
    if (!step || step.challengeType !== PASSKEY_CHALLENGE) {
      throw spent();
    }
    return this.ceremonies.secondFactorOptions(step.userId);
  }

  @Post('login/options')
  @HttpCode(200)
  @ApiOkResponse({ schema: LOGIN_OPTIONS })
  @Header('Cache-Control', 'no-store')
  async loginOptions(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    if (!this.options.passwordless) {
      throw notFound();
    }
    await this.visitorBudget('login', req, res);
    return this.ceremonies.loginOptions();
  }

  /**
   * A passwordless sign-in. Refusals of the passkey itself are JSON (401 AUTH_INVALID_CREDENTIALS);
   * a verified passkey ends with `completeLogin`, whose every outcome is a 302 (SPEC 5.7.4).
   */
  @Post('login/verify')
  @ApiResponse({
    status: 302,
    description: '`completeLogin`: signed in, to `next`; a refused account, to the login page with its error',
  })
  async loginVerify(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    if (!this.options.passwordless) {
      throw notFound();
    }
    await this.visitorBudget('login', req, res);
    res.setHeader('Cache-Control', 'no-store');
    const userId = await this.ceremonies.verifyLogin(body);
    const next = (body as { next?: unknown } | null)?.next;
    // User verification is required: the passkey is both factors, so no second factor is asked
    // (this plugin's nor another's, e.g. TOTP).
    await this.ctx.auth.completeLogin(userId, {
      request: req,
      response: res,
      strategy: 'passkeys:webauthn',
      next: typeof next === 'string' ? next : undefined,
      multiFactor: true,
    });
  }
}
