import { Delete, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import type { AuthContext } from '../../common/access/auth-context';
import { SvcController } from '../../common/access/svc-controller';
import {
  DATE_TIME,
  INTEGER,
  listOf,
  MESSAGE_ANSWER,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID as UUID_SCHEMA,
  BOOLEAN,
} from '../../common/api-schema';
import { ServiceError } from '../../common/errors';
import { SessionsService } from './sessions.service';

const SESSION = namedSchema(
  'Session',
  objectSchema({
    id: UUID_SCHEMA,
    current: BOOLEAN,
    strategy: STRING,
    ip: NULLABLE_STRING,
    userAgent: NULLABLE_STRING,
    createdAt: DATE_TIME,
    lastUsedAt: DATE_TIME,
    expiresAt: DATE_TIME,
  }),
);
const ENDED_ANSWER = objectSchema({ message: STRING, ended: INTEGER });

/** A user's own sessions are theirs alone: an API key acts for no session (CONTRACTS 14.1). */
function assertSignedInUser(auth: AuthContext): void {
  if (auth.apiKey) {
    throw new ServiceError('AUTH_REQUIRED', 'Sessions are read and ended with a session, not an API key');
  }
}

/** `/admin/api/auth/sessions`: the caller's sign-ins (cookie or Bearer access token). */
@SvcController('auth/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @ApiOkResponse({ schema: listOf(SESSION) })
  list(@CurrentAuth() auth: AuthContext) {
    assertSignedInUser(auth);
    return this.sessions.mine(auth);
  }

  /** Every session of the caller but the current one. */
  @Delete()
  @ApiOkResponse({ schema: ENDED_ANSWER })
  async endOthers(@CurrentAuth() auth: AuthContext, @Req() req: Request) {
    assertSignedInUser(auth);
    // A sensitive change: the browser session with a recent sign-in (CONTRACTS 14.6).
    await this.sessions.assertRecentSignIn(auth);
    const ended = await this.sessions.endOthers(auth, req.ip ?? null);
    return { message: ended === 1 ? '1 session ended' : `${ended} sessions ended`, ended };
  }

  @Delete(':id')
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async end(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Req() req: Request) {
    assertSignedInUser(auth);
    await this.sessions.endMine(auth, id, req.ip ?? null);
    return { message: 'Session ended' };
  }
}

/** `/admin/api/users/{id}/sessions`: an administrator's view of a user's sessions. */
@SvcController('users/:id/sessions')
export class UserSessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @RequirePermission('read-users')
  @ApiOkResponse({ schema: listOf(SESSION) })
  list(@Param('id') id: string) {
    return this.sessions.ofUser(id);
  }

  @Delete()
  @RequirePermission('update-users')
  @ApiOkResponse({ schema: ENDED_ANSWER })
  async endAll(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Req() req: Request) {
    const ended = await this.sessions.endAllOfUser(auth, id, req.ip ?? null);
    return { message: ended === 1 ? '1 session ended' : `${ended} sessions ended`, ended };
  }
}
