#!/usr/bin/env node
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseCliArgs } from './args';

const USAGE = `Usage: npm run typegen -- --url <service address> --out <file>
       npm run typegen -- --file <openapi.json> --out <file>
In a project that installed the package: npx svc-typegen --url <service address> --out <file>
(with openapi-typescript among its dev dependencies).

Writes TypeScript types for a service's REST API, its collections' and singles' own operations
included, from its OpenAPI document (<address>/admin/api/openapi.json). Pass them to the client:
createClient<paths>({ baseUrl }) from 'svc/client'. Run it again after changing a collection.

Options:
  --url <address>   the service's address, e.g. http://localhost:3000
  --file <path>     a saved OpenAPI document instead of --url
  --out <file>      the TypeScript file to write (its folder is created)
  -h, --help        show this text
`;

const HEADER = `/**
 * Types of the service's REST API, generated from its OpenAPI document by openapi-typescript
 * (\`npm run typegen\`). Do not edit: generate them again.
 */

`;

/** `npm run typegen -- --url http://localhost:3000 --out src/svc-api.ts` */
main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});

async function main(): Promise<void> {
  const values = parseCliArgs('typegen', USAGE, {
    url: { type: 'string' },
    file: { type: 'string' },
    out: { type: 'string' },
  });
  if (!values) {
    return;
  }
  if (!values.out || Boolean(values.url) === Boolean(values.file)) {
    throw new Error('Give --out and one of --url or --file (see --help)');
  }
  const document = values.url ? await download(values.url) : await readDocument(values.file!);
  const types = await typesOf(document);
  const out = resolve(values.out);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, HEADER + types);
  process.stdout.write(`wrote ${out}\n`);
}

async function download(address: string): Promise<object> {
  let url: URL;
  try {
    url = new URL('/admin/api/openapi.json', address);
  } catch {
    throw new Error(`--url must be the service's address, such as http://localhost:3000 (got ${address})`);
  }
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: 'application/json' } });
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
    throw new Error(`Could not reach ${url.href}: ${cause}. Is the service running at that address?`);
  }
  if (!res.ok) {
    throw new Error(`${url.href} answered ${res.status}: is this the service's address?`);
  }
  return asDocument(await res.text(), url.href);
}

async function readDocument(file: string): Promise<object> {
  try {
    return asDocument(await readFile(file, 'utf8'), file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`${file} does not exist`);
    }
    throw e;
  }
}

function asDocument(text: string, source: string): object {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON`);
  }
  if (typeof doc !== 'object' || doc === null || typeof (doc as { openapi?: unknown }).openapi !== 'string') {
    throw new Error(`${source} is not an OpenAPI document`);
  }
  return doc;
}

/**
 * openapi-typescript is loaded when the command runs: the service itself does not need it, so an
 * application using the package installs it only to run this command.
 */
async function typesOf(document: object): Promise<string> {
  const generator = await import('openapi-typescript').catch(() => {
    throw new Error('typegen needs openapi-typescript: npm install --save-dev openapi-typescript');
  });
  const ast = await generator.default(forTypes(document) as Parameters<typeof generator.default>[0]);
  return generator.astToString(ast);
}

interface Parameter {
  schema?: unknown;
  content?: Record<string, { schema?: unknown }>;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy of the document adjusted to how openapi-typescript writes types:
 * - a parameter declared by `content` (`where`) is typed as a plain string, while the client
 *   sends the object as JSON text: its type is the content's schema;
 * - `properties` beside an `additionalProperties` schema become an intersection with an index
 *   signature, which the declared properties must match too (`Where`'s `and`/`or` would have
 *   to be operators): the index signature takes the union of both.
 */
function forTypes(document: object): object {
  const doc = structuredClone(document) as Node;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isNode(node)) {
      return;
    }
    Object.values(node).forEach(visit);
    const p = node as Parameter;
    const json = p.content?.['application/json']?.schema;
    if (typeof node.in === 'string' && json && !p.schema) {
      p.schema = json;
      delete p.content;
    }
    const extra = node.additionalProperties;
    if (isNode(node.properties) && isNode(extra) && Object.keys(extra).length) {
      const types = [extra, ...Object.values(node.properties)];
      const distinct = [...new Map(types.map((t) => [JSON.stringify(t), t])).values()];
      node.additionalProperties = { anyOf: distinct };
    }
  };
  visit(doc);
  return doc;
}
