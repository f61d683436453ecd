import { nextPath } from './next';

/**
 * A full page load of `path` (after signing in or out: the app starts again with the new
 * session, and nothing of the old one stays in memory).
 */
export function go(path: string): void {
  window.location.assign(path);
}

/** The page to land on after signing in: this address's `next`, when it is allowed. */
export function landing(): string {
  return nextPath(window.location.search);
}

/** Where a followed redirect led, when it is a page of this site under /admin; else /admin. */
export function goRedirected(url: string): void {
  const to = new URL(url, window.location.href);
  const ours = to.origin === window.location.origin && /^\/admin(\/|$)/.test(to.pathname);
  go(ours ? to.pathname + to.search : '/admin');
}
