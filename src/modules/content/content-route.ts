import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ServiceError } from '../../common/errors';
import { AUTH_CONTEXT, RequestWithAuth } from '../auth/auth-context';
import { OptionalAuth } from '../auth/decorators/auth.decorators';
import { ContentAccessService } from './content-access.service';
import type { ContentAction, Definition } from './content.types';
import { SchemaService } from './schema.service';

export const CONTENT_ROUTE = 'svc:content-route';
const DEFINITION = Symbol('svc:content-definition');

export interface ContentRouteMeta {
  kind: 'collection' | 'single';
  action: ContentAction;
}

type ContentRequest = Request & RequestWithAuth & { [DEFINITION]?: Definition };

/**
 * Loads the collection or single named by `:slug` (404 when none) and lets the caller through
 * when the content access rules allow the action (SPEC 5.4.2). Runs after the global
 * authentication guard, which lets visitors reach these routes without an AuthContext.
 */
@Injectable()
export class ContentAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly schema: SchemaService,
    private readonly access: ContentAccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const meta = this.reflector.get<ContentRouteMeta>(CONTENT_ROUTE, context.getHandler());
    const req = context.switchToHttp().getRequest<ContentRequest>();
    const slug = req.params.slug;
    const def = typeof slug === 'string' ? await this.schema.find(meta.kind, slug) : undefined;
    if (!def) {
      // Visitors learn nothing about which collections exist; callers get the plain answer.
      throw req[AUTH_CONTEXT]
        ? new ServiceError('NOT_FOUND', `No such ${meta.kind}`)
        : new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
    }
    await this.access.require(def, meta.action, req[AUTH_CONTEXT] ?? null, req);
    req[DEFINITION] = def;
    return true;
  }
}

/** A route on one collection's or single's content, open as far as its access rules say. */
export function ContentRoute(kind: ContentRouteMeta['kind'], action: ContentAction): MethodDecorator {
  return applyDecorators(
    SetMetadata(CONTENT_ROUTE, { kind, action } satisfies ContentRouteMeta),
    OptionalAuth(),
    UseGuards(ContentAccessGuard),
  );
}

/** The definition ContentAccessGuard loaded. */
export const CurrentDefinition = createParamDecorator((_data: unknown, ctx: ExecutionContext): Definition => {
  const def = ctx.switchToHttp().getRequest<ContentRequest>()[DEFINITION];
  if (!def) {
    throw new Error('CurrentDefinition needs @ContentRoute on the handler');
  }
  return def;
});

/** Who asks (`{ auth, req }`), for the access decisions a content service makes itself. */
export const CurrentCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<ContentRequest>();
  return { auth: req[AUTH_CONTEXT] ?? null, req };
});
