import type { ExecutionContext } from '@nestjs/common';

/** A handler or a controller class, as the context and Reflector give and take them. */
type Target = ReturnType<ExecutionContext['getHandler']>;
type Targets = [handler: Target, controller: Target];

/**
 * What a guard reads from a route's decorators, read once per route: the metadata is fixed once
 * the application is built, and reflect-metadata lookups on every request were a measurable part
 * of a content read (issue 17). Keyed by controller, then handler (a handler inherited by two
 * controllers may be decorated differently through each).
 */
export class RouteMetadata<T> {
  private readonly byController = new WeakMap<Target, WeakMap<Target, T>>();

  constructor(private readonly read: (targets: Targets) => T) {}

  of(context: ExecutionContext): T {
    const controller = context.getClass();
    const handler = context.getHandler();
    let routes = this.byController.get(controller);
    if (!routes) {
      routes = new WeakMap<Target, T>();
      this.byController.set(controller, routes);
    }
    let value = routes.get(handler);
    if (value === undefined) {
      value = this.read([handler, controller]);
      routes.set(handler, value);
    }
    return value;
  }
}
