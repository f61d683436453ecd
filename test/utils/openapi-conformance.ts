import { appendFileSync } from 'node:fs';
import SupertestTestClass from 'supertest/lib/test';
import type { OpenApiDocument } from '../../src/modules/openapi/openapi-document';
import { checkRequestBody, checkResponse, type CheckedResponse } from './openapi-check';

/**
 * Issue 21: every answer the e2e suite receives through supertest is checked against the
 * service's own OpenAPI document (the document of the app that answered, with its current
 * collections), so the document cannot drift from the code. A response that does not conform
 * fails the request's `await` with the list of problems, as a failed `.expect()` would.
 *
 * `OPENAPI_CHECK=off` turns it off; `OPENAPI_CHECK=collect` with `OPENAPI_CHECK_LOG=<file>`
 * appends the problems to the file instead of failing (to survey the gaps of the document).
 */

type DocumentSource = () => Promise<OpenApiDocument>;

const sources = new WeakMap<object, DocumentSource>();

/** Checks the answers of `server` against the document `source` gives. */
export function checkAnswersOf(server: object, source: DocumentSource): void {
  sources.set(server, source);
}

/** Runs `fn` with the check off for `server` (tests that feed the check wrong answers on purpose). */
export function uncheckedServer(server: object): void {
  sources.delete(server);
}

interface SupertestTest {
  app: object;
  method: string;
  url: string;
  /** What superagent will send (`.send()`): an object, or a string as given. */
  _data?: unknown;
  _formData?: unknown;
  _header: Record<string, string | undefined>;
  assert(
    resError: unknown,
    res: CheckedResponse | undefined,
    fn?: (err: unknown, res: unknown) => void,
  ): void;
}

let installed = false;

/** Wraps supertest's Test#assert (where every request ends) with the check. */
export function installConformanceCheck(): void {
  const mode = process.env.OPENAPI_CHECK ?? 'enforce';
  if (installed || mode === 'off') {
    return;
  }
  installed = true;
  // Test#assert is supertest's own (not in its types): the class is typed here as it is used.
  const Test = SupertestTestClass as unknown as { prototype: SupertestTest };
  const original = Test.prototype.assert;
  Test.prototype.assert = function (this: SupertestTest, resError, res, fn) {
    const source = res && this.app ? sources.get(this.app) : undefined;
    if (!source || this.method === 'HEAD' || this.method === 'OPTIONS') {
      return original.call(this, resError, res, fn);
    }
    const path = this.url.replace(/^https?:\/\/[^/]+/, '');
    source().then(
      (doc) => {
        const problems = checkResponse(doc, this.method, path, res!);
        if (res!.status >= 200 && res!.status < 300 && !this._formData) {
          // A body the service accepted must be one the document describes.
          problems.push(
            ...checkRequestBody(doc, this.method, path, this._data, this._header['content-type']),
          );
        }
        if (!problems.length) {
          return original.call(this, resError, res, fn);
        }
        if (mode === 'collect') {
          if (process.env.OPENAPI_CHECK_LOG) {
            appendFileSync(
              process.env.OPENAPI_CHECK_LOG,
              problems
                .map((p) => JSON.stringify({ file: expect.getState().testPath, problem: p }))
                .join('\n') + '\n',
            );
          }
          return original.call(this, resError, res, fn);
        }
        const err = new Error(
          `the answer does not conform to the OpenAPI document:\n  ${problems.join('\n  ')}`,
        );
        return original.call(this, resError, res, (assertErr, r) => fn?.call(this, assertErr ?? err, r));
      },
      // The app closed before the check could read its document: nothing to check against.
      () => original.call(this, resError, res, fn),
    );
  };
}
