import { Module } from '@nestjs/common';
import { AdminAppController, PagesEnabledGuard } from './admin-app.controller';

/**
 * The admin app under `/admin`: sign-in and account screens, and the content screens. Standalone:
 * it needs nothing from the other modules; the app talks to the JSON API from the browser.
 * Mounted unless `pages: false` (`SVC_PAGES=false`).
 */
@Module({ controllers: [AdminAppController], providers: [PagesEnabledGuard] })
export class PagesModule {}
