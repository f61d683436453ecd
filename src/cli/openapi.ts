import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { loadConfigFile } from '../config/config-file';
import { loadEnv } from '../config/env';
import type { FieldConfig } from '../config/config.types';
import type { Definition } from '../modules/content/content.types';
import { MEDIA_FIELDS, MEDIA_SLUG } from '../modules/content/media.definition';
import { buildRoutesDocument, withContent } from '../modules/openapi/openapi-document';
import { registeredRoutes } from '../modules/openapi/service-routes';
import { SvcModule } from '../svc.module';
import { parseCliArgs } from './args';
import { runCli } from './database';

const USAGE = `Usage: node dist/src/cli/openapi.js [--out <file>]

Prints the OpenAPI document of the service (what GET /admin/api/openapi.json answers) for the
collections and singles of the config file (svc.config.ts, or SVC_CONFIG), with the server
address of NEXT_PUBLIC_APP_URL. No database is needed: collections created over REST are not
in it (fetch the document of the running service for those). The output is the same for the
same code and config, so it can be checked in or diffed.

Options:
  --out <file>  write the document to <file> instead of printing it
  -h, --help    show this text
`;

/** A definition as the running service would hold it (ids and dates aside). */
function definitionOf(
  kind: Definition['kind'],
  source: Definition['source'],
  c: { slug: string; labels?: Definition['labels']; label?: string; drafts?: boolean; fields: FieldConfig[] },
): Definition {
  const epoch = new Date(0);
  return {
    id: '',
    kind,
    slug: c.slug,
    source,
    labels: c.labels,
    label: c.label,
    drafts: c.drafts === true,
    fields: c.fields.map((f) => ({ ...f, id: f.name })),
    access: {},
    createdAt: epoch,
    updatedAt: epoch,
  };
}

/** `node dist/src/cli/openapi.js [--out <file>]` */
runCli(async () => {
  const values = parseCliArgs('openapi', USAGE, { out: { type: 'string' } });
  if (!values) {
    return;
  }
  const env = loadEnv();
  const config = await loadConfigFile(env.configFile);
  // Preview: the modules and their controllers are registered, no provider runs (no database).
  const app = await NestFactory.create(
    SvcModule.forRoot({
      secret: 'openapi-document-only-no-provider-runs',
      database: { url: 'postgres://127.0.0.1:1/unused' },
      config,
      publicUrl: env.publicUrl,
      production: env.production,
      standalone: true,
    }),
    { preview: true, logger: false, abortOnError: false },
  );
  const routes = registeredRoutes(app.get(ModulesContainer));
  const media = { slug: MEDIA_SLUG, labels: { singular: 'Media', plural: 'Media' }, fields: MEDIA_FIELDS };
  const doc = withContent(buildRoutesDocument(routes, env.publicUrl), {
    collections: [
      definitionOf('collection', 'system', media),
      ...(config.collections ?? []).map((c) => definitionOf('collection', 'code', c)),
    ],
    singles: (config.singles ?? []).map((c) => definitionOf('single', 'code', c)),
    fieldGroups: [],
  });
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, text);
  } else {
    // runCli exits when this resolves: a pipe must have taken the whole document first.
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(text, (e) => (e ? reject(e) : resolve())),
    );
  }
});
