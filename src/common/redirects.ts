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

/**
 * A page of the admin site: `/admin`, or `/admin/...` not under `/admin/api`, with any query or
 * fragment. Checked segment by segment after percent-decoding, and refused rather than
 * normalised when a browser, proxy or router could read it as another path: a dot segment, an
 * empty segment (except a final `/`), a segment decoding to `/`, `\` or `%` (double encoding),
 * and `api` in any letter case (Express routes case-insensitively).
 */
export function isAdminPagePath(value: string): boolean {
  if (!isSameOriginPath(value)) {
    return false;
  }
  const [first, ...rest] = value.split(/[?#]/, 1)[0].split('/').slice(1);
  if (first !== 'admin') {
    return false;
  }
  for (let i = 0; i < rest.length; i++) {
    let segment: string;
    try {
      segment = decodeURIComponent(rest[i]);
    } catch {
      return false;
    }
    const empty = segment === '' && i < rest.length - 1;
    if (
      empty ||
      segment === '.' ||
      segment === '..' ||
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      /[/\\%\u0000-\u001f\u007f]/.test(segment) ||
      (i === 0 && segment.toLowerCase() === 'api')
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Where a sign-in lands (CONTRACTS 10, 14.6): `next` when it is an admin page, else `/admin`. Never
 * another origin, and never the API: a `next` into `/admin/api/` could make the victim's browser
 * follow an attacker's sign-in link (login CSRF).
 */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && isAdminPagePath(next) ? next : '/admin';
}
