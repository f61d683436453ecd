import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { randomToken, sameSecret } from '../../common/crypto';
import { ServiceError } from '../../common/errors';
import { OriginCheckService } from '../identity/origin-check.service';
import { CSRF_COOKIE } from './cookies';

export const CSRF_HEADER = 'x-csrf-token';

/**
 * Double-submit CSRF tokens plus an Origin/Referer check (SPEC 5.5, CONTRACTS 3.1). The origin
 * check (allowed origins: the address the server listens on, NEXT_PUBLIC_APP_URL's origin,
 * SVC_ALLOWED_ORIGINS) is identity's OriginCheckService, which the authentication guard shares.
 */
@Injectable()
export class CsrfService {
  constructor(private readonly origins: OriginCheckService) {}

  newToken(): string {
    return randomToken();
  }

  check(req: Request): void {
    // A bearer credential is not sent by a browser on its own, so it cannot be forged cross-site.
    if (typeof req.headers.authorization === 'string' && /^Bearer\s/i.test(req.headers.authorization)) {
      return;
    }
    this.origins.checkOrigin(req);
    const sent = req.headers[CSRF_HEADER];
    const cookie = (req.cookies as Record<string, string> | undefined)?.[CSRF_COOKIE];
    if (typeof sent !== 'string' || typeof cookie !== 'string' || !sameSecret(sent, cookie)) {
      throw new ServiceError(
        'CSRF_FAILED',
        'The CSRF token is missing or does not match; get one from /auth/csrf',
      );
    }
  }
}
