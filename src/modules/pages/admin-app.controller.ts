import { Get, NotFoundException, Param, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../../common/access/public.decorator';
import { SvcController } from '../../common/access/svc-controller';
import { ServiceError } from '../../common/errors';
import { PACKAGE_ROOT } from '../../common/version';
import { pageHeaders, PagesEnabledGuard } from './pages.controller';

/** `npm run build` puts the admin app (admin/, built with Vite) here. */
export const ADMIN_APP_DIR = join(PACKAGE_ROOT, 'dist', 'admin');
/** Hashed file names: `index-CzZBp8P5.js`. Nothing else is served from the app's folder. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css|svg|png|woff2)$/;

/**
 * The admin app (a React single-page app): each of its screens' URLs answers its `index.html`
 * (never cached, the pages' strict policy), its hashed files are cached for a year. The sign-in
 * and account pages of PagesController keep their own routes under `/admin` until the app takes
 * them over.
 */
@SvcController('admin', { absolute: true })
@Public()
@UseGuards(PagesEnabledGuard)
@ApiExcludeController()
export class AdminAppController {
  private index: string | undefined;

  @Get(['content', 'media', 'collections', 'collections/{*rest}', 'singles/{*rest}'])
  screen(@Res() res: Response): void {
    const index = (this.index ??= this.read());
    pageHeaders(res, 'no-cache');
    res.status(200).send(index);
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

  private read(): string {
    const file = join(ADMIN_APP_DIR, 'index.html');
    if (!existsSync(file)) {
      throw new ServiceError('SERVICE_UNAVAILABLE', 'The admin app is not built: run npm run build');
    }
    return readFileSync(file, 'utf8');
  }
}
