import { applyDecorators, Controller, SetMetadata, UsePipes } from '@nestjs/common';
import { createValidationPipe } from '../validation';

export const SVC_ROUTE = 'svc:route';
/**
 * Marks a plugin's controllers (set by the plugin host): authenticated when credentials come
 * along, never refused by the core (CONTRACTS 10); the plugin protects its own routes.
 */
export const PLUGIN_ROUTE = 'svc:plugin-route';

/**
 * A controller of the service: mounted under `/admin/api/<path>` (or at an absolute path for the
 * health probe), validated strictly, and seen by the service's global guards. Routes of a host
 * application are not marked and stay untouched by them.
 */
export function SvcController(path: string, opts: { absolute?: boolean } = {}): ClassDecorator {
  const full = opts.absolute ? path.replace(/^\/+/, '') : `admin/api/${path}`.replace(/\/+$/, '');
  return applyDecorators(Controller(full), SetMetadata(SVC_ROUTE, true), UsePipes(createValidationPipe()));
}
