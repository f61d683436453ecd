import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CsrfService } from '../csrf.service';

/** On the auth controller: every POST and PATCH must pass the CSRF check (CONTRACTS 3.1). */
@Injectable()
export class CsrfGuard implements CanActivate {
  constructor(private readonly csrf: CsrfService) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (req.method === 'POST' || req.method === 'PATCH') {
      this.csrf.check(req);
    }
    return true;
  }
}
