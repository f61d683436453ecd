import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { RouteMetadata } from '../../src/common/access/route-metadata';

class Base {
  shared(): void {}
}
class A extends Base {
  own(): void {}
}
class B extends Base {}

const context = (controller: new () => object, handler: () => void) =>
  new ExecutionContextHost([{}, {}, () => undefined], controller as never, handler);

describe('RouteMetadata', () => {
  it('reads a route once and answers the same value after', () => {
    const read = jest.fn(([handler, controller]: [object, object]) => ({ handler, controller }));
    const routes = new RouteMetadata(read);
    const first = routes.of(context(A, A.prototype.own));
    expect(routes.of(context(A, A.prototype.own))).toBe(first);
    expect(first).toEqual({ handler: A.prototype.own, controller: A });
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('keeps an inherited handler apart per controller', () => {
    const routes = new RouteMetadata(([, controller]) => (controller as { name: string }).name);
    expect(routes.of(context(A, Base.prototype.shared))).toBe('A');
    expect(routes.of(context(B, Base.prototype.shared))).toBe('B');
  });
});
