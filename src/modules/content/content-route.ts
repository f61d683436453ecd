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
import type { Request, Response } from 'express';
import { andThen, type Awaitable } from '../../common/cache';
import { ServiceError } from '../../common/errors';
import { AUTH_CONTEXT, type AuthContext, RequestWithAuth } from '../../common/access/auth-context';
import { OptionalAuth } from '../../common/access/auth.decorators';
import { RouteMetadata } from '../../common/access/route-metadata';
import { ContentAccessService } from './content-access.service';
import type { ContentAction, Definition } from './content.types';
import { DefinitionRegistry } from './definition-registry';
import { grantPreview, PREVIEW_READ, presentedPreviewToken } from './preview-grant';
import { PreviewService } from './preview/preview.service';

export const CONTENT_ROUTE = 'svc:content-route';
const DEFINITION = Symbol('svc:content-definition');

export interface ContentRouteMeta {
  kind: 'collection' | 'single';
  action: ContentAction;
}

type ContentRequest = Request & RequestWithAuth & { [DEFINITION]?: Definition };

/** Who asks, for the access decisions a content service makes itself (populated relations...). */
export interface Caller {
  auth: AuthContext | null;
  req: Request;
}

/**
 * Loads the collection or single named by `:slug` (404 when none) and lets the caller through
 * when the content access rules allow the action (SPEC 5.4.2). Runs after the global
 * authentication guard, which lets visitors reach these routes without an AuthContext.
 *
 * On the reads that take a preview token (`PREVIEW_READ`), a presented token decides instead,
 * whatever other credentials come along: one naming this entry lets the read through as a
 * preview (`grantPreview`; answered `no-store`, as it may show a draft), any other is 401.
 */
@Injectable()
export class ContentAccessGuard implements CanActivate {
  private readonly routes: RouteMetadata<ContentRouteMeta & { preview: boolean }>;

  constructor(
    reflector: Reflector,
    private readonly registry: DefinitionRegistry,
    private readonly access: ContentAccessService,
    private readonly previews: PreviewService,
  ) {
    this.routes = new RouteMetadata(([handler]) => ({
      ...reflector.get<ContentRouteMeta>(CONTENT_ROUTE, handler),
      preview: reflector.get<boolean>(PREVIEW_READ, handler) === true,
    }));
  }

  /** At once for a cached definition and a rule that is no function (see `andThen`). */
  canActivate(context: ExecutionContext): Awaitable<boolean> {
    const meta = this.routes.of(context);
    const req = context.switchToHttp().getRequest<ContentRequest>();
    const slug = req.params.slug;
    return andThen(typeof slug === 'string' ? this.registry.find(meta.kind, slug) : undefined, (def) => {
      if (!def) {
        // Visitors learn nothing about which collections exist; callers get the plain answer.
        throw req[AUTH_CONTEXT]
          ? new ServiceError('NOT_FOUND', `No such ${meta.kind}`)
          : new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
      }
      const token = meta.preview ? presentedPreviewToken(req) : undefined;
      if (token !== undefined) {
        return this.preview(context, req, def, meta.kind, token);
      }
      return andThen(this.access.require(def, meta.action, req[AUTH_CONTEXT] ?? null, req), () => {
        req[DEFINITION] = def;
        return true;
      });
    });
  }

  private async preview(
    context: ExecutionContext,
    req: ContentRequest,
    def: Definition,
    kind: ContentRouteMeta['kind'],
    token: string,
  ): Promise<boolean> {
    const id = kind === 'single' ? def.id : String(req.params.id).toLowerCase();
    grantPreview(req, await this.previews.admit(token, def, id));
    context.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'no-store');
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

/** The definition ContentAccessGuard loaded for the request. */
export function definitionOf(req: object): Definition {
  const def = (req as ContentRequest)[DEFINITION];
  if (!def) {
    throw new Error('CurrentDefinition needs @ContentRoute on the handler');
  }
  return def;
}

/** Who asks (`{ auth, req }`): what the guards found. */
export function callerOf(req: object): Caller {
  const r = req as ContentRequest;
  return { auth: r[AUTH_CONTEXT] ?? null, req: r };
}

/** The definition ContentAccessGuard loaded. */
export const CurrentDefinition = createParamDecorator((_data: unknown, ctx: ExecutionContext): Definition =>
  definitionOf(ctx.switchToHttp().getRequest()),
);

/** Who asks (`{ auth, req }`), for the access decisions a content service makes itself. */
export const CurrentCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): Caller =>
  callerOf(ctx.switchToHttp().getRequest()),
);
