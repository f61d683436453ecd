/**
 * Query parameters whose values never reach a log line, matched anywhere in the (decoded) name,
 * case-insensitively: emailed links carry `token`, OAuth-style callbacks `code` and `state`,
 * content reads a preview token as `preview`, and clients put keys, signatures, one-time codes
 * and passwords in URLs under many spellings (`access_token`, `apiKey`, `X-Amz-Signature`,
 * `user[password]`, `otp`). A substring match fails safe: it also hides harmless values
 * (`author`, `zipcode`, `keyword`), which costs a little debugging and never a secret.
 */
export const SECRET_PARAM =
  /token|code|state|secret|passw|pwd|key|sig|otp|nonce|auth|session|ticket|hash|jwt|credential|preview/i;

export const REDACTED = '[redacted]';

/**
 * The URL (a request target or a Referer) with the value of every secret-looking parameter
 * replaced by `[redacted]`, the name kept as written: `/admin/reset-password?token=[redacted]&x=1`.
 * Separators are `&` and `;` (a `;` is no separator to the service's query parser, but a client
 * that meant one must not leak either). The fragment is treated like a query (OAuth's implicit
 * flow puts `access_token` there). Runs for every logged request: a URL with neither `?` nor `#`,
 * or whose query has no secret-looking text and no `%`, is answered as it is.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const h = url.indexOf('#');
  if (q === -1 && h === -1) {
    return url;
  }
  // Most queries hold no secret-looking text at all (`?limit=10&page=2`): answered as they are.
  // A name is part of the text, so it can only match where the text does; an escape (`%74oken`)
  // decodes to text the test did not see, so a `%` takes the long way.
  const rest = url.slice(q === -1 || (h !== -1 && h < q) ? h : q);
  if (!SECRET_PARAM.test(rest) && !rest.includes('%')) {
    return url;
  }
  const end = h === -1 ? url.length : h;
  const beforeFragment =
    q === -1 || q > end ? url.slice(0, end) : url.slice(0, q + 1) + redactParams(url.slice(q + 1, end));
  return h === -1 ? beforeFragment : `${beforeFragment}#${redactParams(url.slice(h + 1))}`;
}

function redactParams(query: string): string {
  // split with a capture group keeps the separators at the odd indexes.
  return query
    .split(/([&;])/)
    .map((part, i) => (i % 2 === 1 ? part : redactParam(part)))
    .join('');
}

function redactParam(pair: string): string {
  const eq = pair.indexOf('=');
  // No value (`?token`, `?token=`) or no name: nothing to hide.
  if (eq <= 0 || eq === pair.length - 1) {
    return pair;
  }
  const name = pair.slice(0, eq);
  return SECRET_PARAM.test(decodeName(name)) ? `${name}=${REDACTED}` : pair;
}

/** The name as the query parser reads it (`%74oken` is `token`); a malformed escape keeps the rest decoded. */
function decodeName(name: string): string {
  if (!name.includes('%')) {
    return name;
  }
  try {
    return decodeURIComponent(name);
  } catch {
    return name.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}
