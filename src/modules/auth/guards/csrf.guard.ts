import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CsrfService } from '../csrf.service';
import { AuthRateLimitGuard, drawsAuthBudget } from './auth-rate-limit.guard';

/**
 * On the auth controller: every POST and PATCH must pass the CSRF check (CONTRACTS 3.1). On a
 * route under the per-IP sign-in budget, the budget is drawn first, so a refused request counts
 * and carries the `X-RateLimit-*` headers like any other answer (the route's own budget guard then
 * finds the request counted).
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  constructor(
    private readonly csrf: CsrfService,
    private readonly budget: AuthRateLimitGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    if (req.method === 'POST' || req.method === 'PATCH') {
      if (drawsAuthBudget(context)) {
        await this.budget.canActivate(context);
      }
      this.csrf.check(req);
    }
    return true;
  }
}
