import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { SVC_ROUTE } from '../../src/common/access/svc-controller';

const scanner = new MetadataScanner();

/** A route of the service with its handler and controller, for reading their decorators. */
export interface ServiceRoute {
  method: string;
  /** Without the global prefix, e.g. `/admin/api/users/:id`. */
  path: string;
  handler: object;
  cls: object;
}

/**
 * Every route the service registered (controllers marked SVC_ROUTE), from the decorators, so a
 * test over "every route" covers a new one without being edited. Sorted by path, then method.
 */
export function serviceRoutes(app: INestApplication): ServiceRoute[] {
  const routes: ServiceRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const cls = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!cls || !Reflect.getMetadata(SVC_ROUTE, cls)) {
        continue;
      }
      const base = String(Reflect.getMetadata(PATH_METADATA, cls));
      // Inherited handlers too (a plugin's per-instance controller extends a shared one), as Nest routes them.
      for (const name of scanner.getAllMethodNames(cls.prototype)) {
        const handler = (cls.prototype as Record<string, unknown>)[name];
        if (
          name === 'constructor' ||
          typeof handler !== 'function' ||
          Reflect.getMetadata(PATH_METADATA, handler) === undefined
        ) {
          continue;
        }
        // A handler may serve several paths (`@Get(['a', 'b'])`): one route each.
        const subs = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat();
        for (const sub of subs) {
          routes.push({
            method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
            path: `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/'),
            handler,
            cls,
          });
        }
      }
    }
  }
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}
