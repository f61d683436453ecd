import { Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthContext } from '../../common/access/auth-context';
import { CookieOnly, CurrentAuth } from '../../common/access/auth.decorators';
import { SvcController } from '../../common/access/svc-controller';
import { DashboardService } from './dashboard.service';

/**
 * `/admin/api/dashboard`: figures, recent entries and activity for the admin UI, browser session
 * only (a Bearer credential of any kind is 401); each answer holds only what the caller may read.
 */
@SvcController('dashboard')
@CookieOnly()
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get('stats')
  stats(@CurrentAuth() auth: AuthContext, @Req() req: Request) {
    return this.dashboard.stats(auth, req);
  }

  @Get('recent-entries')
  recentEntries(
    @CurrentAuth() auth: AuthContext,
    @Req() req: Request,
    @Query() query: Record<string, unknown>,
  ) {
    return this.dashboard.recentEntries(auth, req, query);
  }

  @Get('activity')
  activity(@CurrentAuth() auth: AuthContext, @Req() req: Request, @Query() query: Record<string, unknown>) {
    return this.dashboard.activity(auth, req, query);
  }
}
