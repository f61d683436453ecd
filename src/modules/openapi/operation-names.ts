import { DECORATORS } from '@nestjs/swagger/dist/constants';
import { operationOf } from './operations';
import type { RegisteredRoute } from './service-routes';

export interface OperationText {
  operationId: string;
  summary: string;
  description: string;
}

/** `blog-notes` → `BlogNotes`; `totp` → `Totp`. */
export const pascalCase = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

const VERB_OF: Record<string, string> = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'update',
  DELETE: 'delete',
};

/**
 * The id, summary and description of a route: `@ApiOperation` on the handler first, then the
 * service's table (operations.ts), else derived from the method and the path (a plugin's route
 * the table does not know): `GET /admin/api/plugins/totp/status` → `getPluginsTotpStatus`,
 * "Get plugins totp status".
 */
export function describeOperation(r: RegisteredRoute, path: string): OperationText {
  const declared = (Reflect.getMetadata(DECORATORS.API_OPERATION, r.handler) ?? {}) as Partial<OperationText>;
  const known = operationOf(r.cls, r.name);
  const derived = deriveOperation(r.method, path);
  return {
    operationId: declared.operationId || known?.operationId || derived.operationId,
    summary: declared.summary || known?.summary || derived.summary,
    description: declared.description || known?.description || derived.description,
  };
}

/** A verb-like id and a summary in words from the method and the path alone. */
export function deriveOperation(method: string, path: string): OperationText {
  const segments = path
    .replace(/^\/admin\/api\/?|^\/api\/?/, '')
    .split('/')
    .filter(Boolean);
  const words: string[] = [];
  for (const s of segments) {
    const param = /^\{(.+)\}$/.exec(s);
    words.push(...(param ? ['by', param[1]] : s.split(/[^A-Za-z0-9]+/).filter(Boolean)));
  }
  const verb = VERB_OF[method] ?? method.toLowerCase();
  const operationId = verb + pascalCase(words.join(' ')) || verb;
  const summary = `${verb[0].toUpperCase()}${verb.slice(1)} ${words.join(' ')}`.trim();
  return {
    operationId,
    summary,
    description: `${summary}: a route an installed plugin adds; its documentation describes it.`,
  };
}

/** Makes every `operationId` of the document unique (a second `x` becomes `x2`), in path order. */
export function uniqueOperationIds(paths: Record<string, Record<string, Record<string, unknown>>>): void {
  const seen = new Set<string>();
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) {
      const base = String(op.operationId);
      let id = base;
      for (let i = 2; seen.has(id); i++) {
        id = `${base}${i}`;
      }
      seen.add(id);
      op.operationId = id;
    }
  }
}
