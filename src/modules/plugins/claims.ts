/** Claims a plugin can never add: the token's own frame (SPEC 6). */
const FRAME_CLAIMS = new Set(['nbf', 'aud', 'iss', 'typ', 'sid']);

export interface MergedClaims {
  claims: Record<string, unknown>;
  /** What was left out and why, for the log (never a value). */
  dropped: string[];
}

/**
 * The claims `customizeClaims` hooks returned, as the token may carry them (SPEC 6): only additions
 * count. Core-built claims (identity, `roleIds`, `ver`, `iat`, `exp`, configured user fields) are
 * put back as core built them, whatever the hook did with them; a claim named after a configured
 * user field cannot be added; `nbf`, `aud`, `iss` and `typ` cannot be added; a value that cannot be
 * read as JSON (a getter that throws, a function, a symbol, a BigInt, a cycle, `undefined`, NaN or
 * an infinity) is omitted, never written as null.
 */
export function mergeClaims(
  core: Record<string, unknown>,
  returned: unknown,
  userFieldNames: ReadonlySet<string>,
): MergedClaims {
  const claims: Record<string, unknown> = {};
  const dropped: string[] = [];
  if (typeof returned === 'object' && returned !== null && !Array.isArray(returned)) {
    let keys: string[] = [];
    try {
      keys = Object.keys(returned);
    } catch {
      dropped.push('(the returned claims could not be listed)');
    }
    for (const key of keys) {
      if (Object.hasOwn(core, key)) {
        continue;
      }
      // Names every object inherits (`__proto__`, `constructor`, `toString`...): the token library
      // looks claim names up in a plain object and fails on them, so they are left out (and logged).
      if (FRAME_CLAIMS.has(key) || userFieldNames.has(key) || key in Object.prototype) {
        dropped.push(`${key}: may not be added`);
        continue;
      }
      const value = readable(() => Reflect.get(returned, key));
      if (value === UNREADABLE) {
        dropped.push(`${key}: its value could not be read`);
        continue;
      }
      claims[key] = value;
    }
  }
  return { claims: { ...claims, ...core }, dropped };
}

const UNREADABLE = Symbol('unreadable');

/** The value as JSON would carry it (a deep copy), or UNREADABLE. */
function readable(read: () => unknown): unknown {
  try {
    const value = read();
    if (
      value === undefined ||
      typeof value === 'function' ||
      typeof value === 'symbol' ||
      // JSON writes NaN and the infinities as null.
      (typeof value === 'number' && !Number.isFinite(value))
    ) {
      return UNREADABLE;
    }
    const json = JSON.stringify(value);
    return json === undefined ? UNREADABLE : (JSON.parse(json) as unknown);
  } catch {
    return UNREADABLE;
  }
}
