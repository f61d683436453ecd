import {
  applyDecorators,
  CanActivate,
  Get,
  Inject,
  Injectable,
  NotFoundException,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { Public } from '../../common/access/public.decorator';
import { SvcController } from '../../common/access/svc-controller';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { PAGES_CSS, PAGES_JS } from './pages.assets';
import {
  acceptInvitePage,
  forgotPasswordPage,
  homePage,
  loginPage,
  resetPasswordPage,
  verifyEmailPage,
} from './pages.html';

/** The policy of every page: nothing inline, nothing from elsewhere, never framed. */
export const PAGES_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The headers of every HTML page under `/admin` (the sign-in pages and the admin app): the policy
 * above, never framed, no referrer to other sites. `cache`: `no-store` for pages whose links carry
 * tokens, `no-cache` for the app's shell.
 */
export function pageHeaders(res: Response, cache: 'no-store' | 'no-cache'): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', PAGES_CSP);
  res.setHeader('Cache-Control', cache);
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
}

/**
 * With `forRootAsync` the options are known only once the module is built, so the pages are
 * mounted and answer 404 when the resolved options turn them off (`forRoot` does not mount them).
 */
@Injectable()
export class PagesEnabledGuard implements CanActivate {
  constructor(@Inject(SVC_OPTIONS) private readonly options: SvcOptions) {}

  canActivate(): boolean {
    if (!this.options.pages) {
      throw new NotFoundException('No such route');
    }
    return true;
  }
}

/** One value of a query parameter (the first when repeated), or undefined. */
function queryValue(req: Request, name: string): string | undefined {
  const raw = (req.query as Record<string, unknown> | undefined)?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' ? value.slice(0, 2048) : undefined;
}

/**
 * The answers in the OpenAPI document: a page is HTML; an asset its text, or 304 when
 * `If-None-Match` names its current ETag. (The query values a page reads, `error` and `token`,
 * come from the request, so the document lists no parameter for them.)
 */
const PageAnswer = () => ApiOkResponse({ description: 'The page (HTML)', content: { 'text/html': {} } });
const AssetAnswer = (type: string) =>
  applyDecorators(
    ApiOkResponse({ description: 'The asset', content: { [type]: {} } }),
    ApiResponse({ status: 304, description: 'Not modified: `If-None-Match` named the current ETag' }),
  );

const etag = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
const ASSETS = {
  js: { body: PAGES_JS, type: 'text/javascript; charset=utf-8', etag: etag(PAGES_JS) },
  css: { body: PAGES_CSS, type: 'text/css; charset=utf-8', etag: etag(PAGES_CSS) },
};

/**
 * The browser pages under `/admin` (issue 21): sign-in (with the resumed second step), forgotten
 * and emailed-link pages, and the signed-in landing page. Open to visitors: each page is the same
 * HTML for everyone; its script asks the JSON API who is signed in.
 */
@SvcController('admin', { absolute: true })
@Public()
@UseGuards(PagesEnabledGuard)
@ApiExcludeController()
export class PagesController {
  @Get()
  @PageAnswer()
  home(@Res({ passthrough: true }) res: Response): string {
    return this.html(res, homePage());
  }

  @Get('login')
  @PageAnswer()
  login(@Req() req: Request, @Res({ passthrough: true }) res: Response): string {
    return this.html(res, loginPage(queryValue(req, 'error')));
  }

  @Get('forgot-password')
  @PageAnswer()
  forgotPassword(@Res({ passthrough: true }) res: Response): string {
    return this.html(res, forgotPasswordPage());
  }

  @Get('reset-password')
  @PageAnswer()
  resetPassword(@Req() req: Request, @Res({ passthrough: true }) res: Response): string {
    return this.html(res, resetPasswordPage(queryValue(req, 'token')));
  }

  @Get('verify-email')
  @PageAnswer()
  verifyEmail(@Req() req: Request, @Res({ passthrough: true }) res: Response): string {
    return this.html(res, verifyEmailPage(queryValue(req, 'token')));
  }

  @Get('accept-invite')
  @PageAnswer()
  acceptInvite(@Req() req: Request, @Res({ passthrough: true }) res: Response): string {
    return this.html(res, acceptInvitePage(queryValue(req, 'token')));
  }

  @Get('assets/pages.js')
  @AssetAnswer('text/javascript')
  script(@Req() req: Request, @Res() res: Response): void {
    this.asset(req, res, ASSETS.js);
  }

  @Get('assets/pages.css')
  @AssetAnswer('text/css')
  styles(@Req() req: Request, @Res() res: Response): void {
    this.asset(req, res, ASSETS.css);
  }

  /** A page: never cached (emailed links carry tokens). */
  private html(res: Response, body: string): string {
    pageHeaders(res, 'no-store');
    return body;
  }

  /** An asset, revalidated by its ETag. */
  private asset(req: Request, res: Response, a: { body: string; type: string; etag: string }): void {
    res.setHeader('Content-Type', a.type);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', a.etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.headers['if-none-match'] === a.etag) {
      res.status(304).end();
      return;
    }
    res.status(200).send(a.body);
  }
}
