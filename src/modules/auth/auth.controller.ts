import { Body, Get, HttpCode, Inject, Post, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { requestStartedAt } from '../../common/request-start';
import { SvcController } from '../../common/svc-controller';
import { AuthContext } from './auth-context';
import { AuthService, ClientInfo, IssuedSession } from './auth.service';
import { clearSessionCookies, REFRESH_COOKIE, setCsrfCookie, setSessionCookies } from './cookies';
import { CsrfService } from './csrf.service';
import { CookieOnly, CurrentAuth } from './decorators/auth.decorators';
import { Public } from './decorators/public.decorator';
import { LoginDto, SetupDto } from './dto/auth.dto';
import { AuthRateLimitGuard } from './guards/auth-rate-limit.guard';
import { CsrfGuard } from './guards/csrf.guard';
import { LoginFloorInterceptor } from './login-floor.interceptor';
import { SVC_OPTIONS, SvcOptions } from '../../svc.options';

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
    private readonly csrf: CsrfService,
    @Inject(SVC_OPTIONS) options: SvcOptions,
  ) {
    this.secure = options.publicUrl.startsWith('https:');
  }

  @Get('setup-status')
  @Public()
  async setupStatus() {
    return { ok: true, completed: await this.auth.setupCompleted() };
  }

  @Post('setup')
  @Public()
  async setup(@Body() dto: SetupDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const session = await this.auth.setup(dto, clientInfo(req));
    return this.answer(res, session, 'Setup complete; you are signed in');
  }

  @Get('csrf')
  @Public()
  csrfToken(@Res({ passthrough: true }) res: Response) {
    const csrfToken = this.csrf.newToken();
    setCsrfCookie(res, csrfToken, this.secure);
    return { csrfToken };
  }

  @Post('login')
  @Public()
  @HttpCode(200)
  @UseGuards(AuthRateLimitGuard)
  @UseInterceptors(LoginFloorInterceptor)
  async login(@Body() dto: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const session = await this.auth.login(dto.email, dto.password, clientInfo(req));
    return this.answer(res, session, 'Signed in');
  }

  @Post('refresh')
  @Public()
  @HttpCode(200)
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const session = await this.auth.refresh(this.refreshCookie(req), clientInfo(req), requestStartedAt(req));
    return this.answer(res, session, 'Session refreshed');
  }

  @Post('logout')
  @Public()
  @HttpCode(200)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.auth.logout(this.refreshCookie(req), clientInfo(req));
    clearSessionCookies(res, this.secure);
    return { message: 'Signed out' };
  }

  @Get('session')
  @CookieOnly()
  session(@CurrentAuth() auth: AuthContext) {
    return { user: auth.user, exp: auth.exp };
  }

  private refreshCookie(req: Request): string | undefined {
    const value = (req.cookies as Record<string, string> | undefined)?.[REFRESH_COOKIE];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  private answer(res: Response, s: IssuedSession, message: string) {
    setSessionCookies(res, { accessToken: s.token, refreshToken: s.refreshToken }, this.secure);
    return { message, user: s.user, token: s.token, exp: s.exp };
  }
}
