/**
 * Where to go after signing in: the `next` of the address when it is a page of the app under
 * `/admin`, else `/admin`. Never the API, nor a path a browser, proxy or router could read as
 * another one (the server applies the same rules to the `next` it is given).
 */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '';
  // eslint-disable-next-line no-control-regex
  if (!next.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(next)) {
    return '/admin';
  }
  const segments = next.split(/[?#]/)[0].split('/');
  if (segments[1] !== 'admin') {
    return '/admin';
  }
  for (let i = 2; i < segments.length; i++) {
    let segment: string;
    try {
      segment = decodeURIComponent(segments[i]);
    } catch {
      return '/admin';
    }
    if (
      (segment === '' && i < segments.length - 1) ||
      segment === '.' ||
      segment === '..' ||
      // eslint-disable-next-line no-control-regex
      /[/\\%\u0000-\u001f\u007f]/.test(segment) ||
      (i === 2 && segment.toLowerCase() === 'api')
    ) {
      return '/admin';
    }
  }
  return next;
}
