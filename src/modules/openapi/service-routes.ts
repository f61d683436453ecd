import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, MODULE_PATH, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, type ModulesContainer } from '@nestjs/core';
import { PLUGIN_ROUTE, SVC_ROUTE } from '../../common/access/svc-controller';

const scanner = new MetadataScanner();

/** A route the service registered, with what the document reads from its decorators. */
export interface RegisteredRoute {
  /** `GET`, `POST`... */
  method: string;
  /** As Nest registers it, e.g. `/admin/api/users/:id`. */
  path: string;
  /** The handler and its controller, for reading their metadata. */
  handler: object;
  cls: new (...args: never[]) => object;
  /** The handler's method name. */
  name: string;
  /** The status Nest answers on success (`@HttpCode`, else 201 for POST, 200 otherwise). */
  status: number;
  /** A plugin's route (CONTRACTS 10): the plugin protects it. */
  plugin: boolean;
}

const join = (...parts: string[]): string =>
  `/${parts.filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/**
 * Every route of the service's controllers (marked SVC_ROUTE), from their decorators, as
 * test/utils/routes.ts enumerates them for the route-access test; plugin modules mounted through
 * RouterModule get their mount path. Sorted by path, then method.
 */
export function registeredRoutes(modules: ModulesContainer): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const module of modules.values()) {
    const metatype = module.metatype as object | undefined;
    const modulePath = metatype
      ? ((Reflect.getMetadata(MODULE_PATH + modules.applicationId, metatype) as string | undefined) ??
        (Reflect.getMetadata(MODULE_PATH, metatype) as string | undefined) ??
        '')
      : '';
    for (const wrapper of module.controllers.values()) {
      const cls = wrapper.metatype as RegisteredRoute['cls'] | null;
      if (!cls || !Reflect.getMetadata(SVC_ROUTE, cls)) {
        continue;
      }
      const base = String(Reflect.getMetadata(PATH_METADATA, cls) ?? '');
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
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const subs = Reflect.getMetadata(PATH_METADATA, handler) as string | string[];
        for (const sub of Array.isArray(subs) ? subs : [subs]) {
          routes.push({
            method,
            path: join(modulePath, base, String(sub)),
            handler,
            cls,
            name,
            status:
              (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
              (method === 'POST' ? 201 : 200),
            plugin: Reflect.getMetadata(PLUGIN_ROUTE, cls) === true,
          });
        }
      }
    }
  }
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** `/users/:id` as an OpenAPI path template (`/users/{id}`), and the names of its parameters. */
export function templated(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}
