import { Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiListQuery, listOf } from '../../common/api-schema';
import type { AuthContext } from '../../common/access/auth-context';
import { CookieOnly, CurrentAuth } from '../../common/access/auth.decorators';
import { SvcController } from '../../common/access/svc-controller';
import { ACTIVITY_ITEM, DASHBOARD_STATS, RECENT_ENTRY } from './dashboard.openapi';
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
  @ApiOkResponse({ schema: DASHBOARD_STATS })
  stats(@CurrentAuth() auth: AuthContext, @Req() req: Request) {
    return this.dashboard.stats(auth, req);
  }

  @Get('recent-entries')
  @ApiOkResponse({ schema: listOf(RECENT_ENTRY) })
  @ApiListQuery({ sortable: [] })
  recentEntries(
    @CurrentAuth() auth: AuthContext,
    @Req() req: Request,
    @Query() query: Record<string, unknown>,
  ) {
    return this.dashboard.recentEntries(auth, req, query);
  }

  @Get('activity')
  @ApiOkResponse({ schema: listOf(ACTIVITY_ITEM) })
  @ApiListQuery({ sortable: [] })
  activity(@CurrentAuth() auth: AuthContext, @Req() req: Request, @Query() query: Record<string, unknown>) {
    return this.dashboard.activity(auth, req, query);
  }
}
