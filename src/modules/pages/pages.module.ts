import { Module } from '@nestjs/common';
import { AdminAppController } from './admin-app.controller';
import { PagesController, PagesEnabledGuard } from './pages.controller';

/**
 * The browser pages under `/admin` (issue 21) and the admin app's screens. Standalone: it needs nothing from the other
 * modules; the pages talk to the JSON API from the browser. Mounted unless `pages: false`
 * (`SVC_PAGES=false`).
 */
@Module({ controllers: [PagesController, AdminAppController], providers: [PagesEnabledGuard] })
export class PagesModule {}
