/**
 * A path on this origin: starts with one `/`, not `//` or `/\` (both read as another host by
 * browsers), and holds no backslash or control character.
 */
export function isSameOriginPath(value: string): boolean {
  return (
    value.startsWith('/') &&
    !value.startsWith('//') &&
    !value.includes('\\') &&
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    !/[\u0000-\u001f\u007f]/.test(value)
  );
}

/** CONTRACTS 10: a `next` that is not a same-origin path (`//host`, `/\host`, a URL, `javascript:`) is `/admin`. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && isSameOriginPath(next) ? next : '/admin';
}
