import {
  CanActivate,
  Get,
  Inject,
  Injectable,
  NotFoundException,
  Param,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../../common/access/public.decorator';
import { SvcController } from '../../common/access/svc-controller';
import { ServiceError } from '../../common/errors';
import { PACKAGE_ROOT } from '../../common/version';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';

/** `npm run build` puts the admin app (admin/, built with Vite) here. */
export const ADMIN_APP_DIR = join(PACKAGE_ROOT, 'dist', 'admin');
/** Hashed file names: `index-CzZBp8P5.js`. Nothing else is served from the app's folder. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css|svg|png|woff2)$/;

/** The app's policy: nothing inline, nothing from elsewhere, never framed. */
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

/** The screens a visitor reaches signed out; their emailed links carry tokens, so never stored. */
const PUBLIC_SCREENS = ['login', 'forgot-password', 'reset-password', 'verify-email', 'accept-invite'];
/** The signed-in screens: the account (`/admin`), the content and the administration screens. */
const SCREENS = [
  '',
  'content',
  'media',
  'collections',
  'collections/{*rest}',
  'singles/{*rest}',
  ...['users', 'roles', 'webhooks', 'schema', 'settings'].flatMap((s) => [s, `${s}/{*rest}`]),
  'audit',
  'api-keys',
];

/**
 * With `forRootAsync` the options are known only once the module is built, so the app is
 * mounted and answers 404 when the resolved options turn it off (`forRoot` does not mount it).
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

/**
 * The admin app (a React single-page app): each of its screens' URLs answers its `index.html`
 * (the strict policy above, never framed, no referrer to other sites), its hashed files are cached
 * for a year. Other paths under `/admin` stay unknown, so `/admin/api/*` is never shadowed.
 */
@SvcController('admin', { absolute: true })
@Public()
@UseGuards(PagesEnabledGuard)
@ApiExcludeController()
export class AdminAppController {
  private index: string | undefined;

  @Get(PUBLIC_SCREENS)
  publicScreen(@Res() res: Response): void {
    this.send(res, 'no-store');
  }

  @Get(SCREENS)
  screen(@Res() res: Response): void {
    this.send(res, 'no-cache');
  }

  @Get('app/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (!ASSET_NAME.test(file) || !existsSync(join(ADMIN_APP_DIR, 'app', file))) {
      throw new NotFoundException('No such file');
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.sendFile(file, {
      root: join(ADMIN_APP_DIR, 'app'),
      maxAge: '365d',
      immutable: true,
      dotfiles: 'deny',
    });
  }

  private send(res: Response, cache: 'no-store' | 'no-cache'): void {
    const index = (this.index ??= this.read());
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', PAGES_CSP);
    res.setHeader('Cache-Control', cache);
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.status(200).send(index);
  }

  private read(): string {
    const file = join(ADMIN_APP_DIR, 'index.html');
    if (!existsSync(file)) {
      throw new ServiceError('SERVICE_UNAVAILABLE', 'The admin app is not built: run npm run build');
    }
    return readFileSync(file, 'utf8');
  }
}
