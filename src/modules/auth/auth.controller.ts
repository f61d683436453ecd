import { Body, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { requestStartedAt } from '../../common/request-start';
import { SvcController } from '../../common/access/svc-controller';
import { AuthContext } from '../../common/access/auth-context';
import { AuthService, ClientInfo, IssuedSession, LoginOutcome, MFA_ENROL_HINT } from './auth.service';
import { MFA_ENROL } from '../plugins/plugin.types';
import {
  clearPendingCookie,
  clearSessionCookies,
  PENDING_COOKIE,
  REFRESH_COOKIE,
  setCsrfCookie,
  setPendingCookie,
  setSessionCookies,
} from './cookies';
import { PendingLoginsService } from './pending-logins.service';
import { CsrfService } from './csrf.service';
import { CookieOnly, CurrentAuth, OptionalAuth } from '../../common/access/auth.decorators';
import { ServiceError } from '../../common/errors';
import { PluginsService } from '../plugins/plugins.service';
import { SESSION_COOKIE } from '../identity/authentication.service';
import { Public } from '../../common/access/public.decorator';
import { LoginDto, ResolveChallengeDto, SetInitialPasswordDto, SetupDto } from './dto/auth.dto';
import { AuthRateLimitGuard } from './guards/auth-rate-limit.guard';
import { CsrfGuard } from './guards/csrf.guard';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { ApiCreatedResponse, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { MESSAGE_ANSWER } from '../../common/api-schema';
import {
  CSRF_TOKEN,
  LOGIN_ANSWER,
  LOGIN_UI,
  PENDING_STEP,
  RESOLVE_ANSWER,
  SESSION_ANSWER,
  SESSION_READ,
  SETUP_STATUS,
} from './auth.openapi';
import { MetricsService } from '../metrics/metrics.service';

export function clientInfo(req: Request): ClientInfo {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua : null };
}

/** `/admin/api/auth/*`: sign-in and sessions. Every POST/PATCH passes the CSRF check. */
@SvcController('auth')
@UseGuards(CsrfGuard)
export class AuthController {
  /** Cookies are `Secure` when the public URL is https. */
  private readonly secure: boolean;

  constructor(
    private readonly auth: AuthService,
    private readonly pendingLogins: PendingLoginsService,
    private readonly csrf: CsrfService,
    private readonly plugins: PluginsService,
    private readonly metrics: MetricsService,
    @Inject(SVC_OPTIONS) options: SvcOptions,
  ) {
    this.secure = options.publicUrl.startsWith('https:');
  }

  @Get('setup-status')
  @Public()
  @ApiOkResponse({ schema: SETUP_STATUS })
  async setupStatus() {
    return { ok: true, completed: await this.auth.setupCompleted() };
  }

  @Post('setup')
  @Public()
  @UseGuards(AuthRateLimitGuard)
  @ApiCreatedResponse({
    description: 'Signed in, or (with auth.mfa) the second-factor enrolment first',
    schema: LOGIN_ANSWER,
  })
  async setup(@Body() dto: SetupDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const outcome = await this.auth.setup(dto, clientInfo(req));
    return outcome.challenge
      ? this.pause(res, outcome)
      : this.answer(res, outcome.session, 'Setup complete; you are signed in');
  }

  @Get('csrf')
  @Public()
  @ApiOkResponse({ schema: CSRF_TOKEN })
  csrfToken(@Res({ passthrough: true }) res: Response) {
    const csrfToken = this.csrf.newToken();
    setCsrfCookie(res, csrfToken, this.secure);
    return { csrfToken };
  }

  @Post('login')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ description: 'Signed in, or a step to answer first', schema: LOGIN_ANSWER })
  async login(@Body() dto: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const outcome = await this.auth
      .login(dto.email, dto.password, clientInfo(req), req)
      .catch((e: unknown) => {
        this.metrics.login('failure');
        throw e;
      });
    this.metrics.login(outcome.challenge ? 'challenge' : 'success');
    return outcome.challenge ? this.pause(res, outcome) : this.answer(res, outcome.session, 'Signed in');
  }

  /** Answers a second factor (SPEC 3.4, CONTRACTS 3.3): the token from the body, else the `svc_pending` cookie. */
  @Post('challenge/resolve')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ description: 'Signed in, or (`continues`) the next step', schema: RESOLVE_ANSWER })
  async resolveChallenge(
    @Body() dto: ResolveChallengeDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    let outcome: LoginOutcome;
    try {
      outcome = await this.auth.resolveChallenge(
        dto.pendingToken ?? this.cookie(req, PENDING_COOKIE),
        dto.response,
        clientInfo(req),
      );
    } catch (e) {
      // A wrong answer's new token replaces the spent one in the cookie too (a resumed login reads it).
      const next =
        e instanceof ServiceError
          ? (e.data as { pendingToken?: unknown } | undefined)?.pendingToken
          : undefined;
      if (typeof next === 'string') {
        setPendingCookie(res, next, new Date(Date.now() + 10 * 60 * 1000), this.secure);
      } else {
        clearPendingCookie(res, this.secure);
      }
      throw e;
    }
    if (outcome.challenge) {
      return { ok: true, continues: true, ...this.pause(res, outcome) };
    }
    clearPendingCookie(res, this.secure);
    return { ok: true, ...this.answer(res, outcome.session, 'Signed in') };
  }

  /** The login page's plugin parts (CONTRACTS 3.3): provider buttons, challenge views, slots. */
  @Get('ui')
  @Public()
  @ApiOkResponse({ schema: LOGIN_UI })
  ui() {
    return this.plugins.ui();
  }

  /** Finishes a login paused because an administrator-set password must be replaced (SPEC 3.4). */
  @Post('set-initial-password')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @ApiOkResponse({ schema: SESSION_ANSWER })
  async setInitialPassword(
    @Body() dto: SetInitialPasswordDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const token = dto.pendingToken ?? this.cookie(req, PENDING_COOKIE);
    const session = await this.auth.setInitialPassword(token, dto.newPassword, clientInfo(req));
    clearPendingCookie(res, this.secure);
    return this.answer(res, session, 'Password set; you are signed in');
  }

  /** The outstanding step of an interrupted sign-in (never the token itself), or 204. */
  @Get('pending')
  @Public()
  @ApiOkResponse({ description: 'The outstanding step', schema: PENDING_STEP })
  @ApiResponse({ status: 204, description: 'No sign-in is pending' })
  async pending(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const step = await this.pendingLogins.describe(this.cookie(req, PENDING_COOKIE));
    if (!step) {
      res.status(204);
      return undefined;
    }
    return {
      challengeType: step.row.kind,
      uiHint:
        step.row.kind === MFA_ENROL
          ? MFA_ENROL_HINT
          : (this.plugins.challenge(step.row.kind)?.challenge.uiHint ?? null),
      attemptsRemaining: step.attemptsRemaining,
      expiresAt: step.row.expires_at.toISOString(),
    };
  }

  @Post('refresh')
  @Public()
  @HttpCode(200)
  @ApiOkResponse({ schema: SESSION_ANSWER })
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const session = await this.auth.refresh(
      this.cookie(req, REFRESH_COOKIE),
      clientInfo(req),
      requestStartedAt(req),
    );
    return this.answer(res, session, 'Session refreshed');
  }

  @Post('logout')
  @Public()
  @HttpCode(200)
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    // The session of the refresh cookie, else the one of the access token (cookie or Bearer).
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    await this.auth.logout(
      this.cookie(req, REFRESH_COOKIE),
      clientInfo(req),
      req,
      bearer ?? this.cookie(req, SESSION_COOKIE),
    );
    clearSessionCookies(res, this.secure);
    return { message: 'Signed out' };
  }

  /** The session (cookie only); a plugin's `determineUser` hook may name the user first (SPEC 6). */
  @Get('session')
  @CookieOnly()
  @OptionalAuth()
  @ApiOkResponse({ schema: SESSION_READ })
  async session(@CurrentAuth() auth: AuthContext | undefined, @Req() req: Request) {
    const determined = this.plugins.hasHook('determineUser') ? await this.auth.determinedUser(req) : null;
    if (determined) {
      return { user: determined, exp: auth?.exp ?? null };
    }
    if (!auth) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
    }
    return { user: auth.user, exp: auth.exp };
  }

  private cookie(req: Request, name: string): string | undefined {
    const value = (req.cookies as Record<string, string> | undefined)?.[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** A paused login: the challenge body, and the token in the `svc_pending` cookie for a resumed page. */
  private pause(res: Response, outcome: LoginOutcome) {
    const c = outcome.challenge!;
    setPendingCookie(res, c.pendingToken, c.expiresAt, this.secure);
    return {
      status: 'challenge',
      challengeType: c.challengeType,
      pendingToken: c.pendingToken,
      uiHint: c.uiHint,
    };
  }

  private answer(res: Response, s: IssuedSession, message: string) {
    setSessionCookies(res, { accessToken: s.token, refreshToken: s.refreshToken }, this.secure);
    return { message, user: s.user, token: s.token, exp: s.exp };
  }
}
