import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { apiDocsEnabled } from '../../config/env';
import { SVC_OPTIONS, type SvcOptions } from '../../config/svc-options';
import type { Definition } from '../content/content.types';
import { SchemaService } from '../content/schema.service';
import { buildRoutesDocument, type OpenApiDocument, withContent } from './openapi-document';
import { registeredRoutes } from './service-routes';

/**
 * The OpenAPI 3.1 document of the running service. The routes part is built once, when the
 * application has started (every module's controllers are known then); the content schemas come
 * from the current definitions, rebuilt only when a definition changed (collections can be
 * created over REST after the boot).
 */
@Injectable()
export class OpenApiService implements OnApplicationBootstrap {
  /** Swagger UI at /admin/api/docs: outside production, or with SVC_API_DOCS=true. */
  readonly docsEnabled: boolean;
  private readonly serverUrl: string;
  private routesDoc?: OpenApiDocument;
  private cached?: { key: string; doc: OpenApiDocument };

  constructor(
    private readonly modules: ModulesContainer,
    private readonly schema: SchemaService,
    @Inject(SVC_OPTIONS) options: SvcOptions,
  ) {
    this.docsEnabled = apiDocsEnabled(options.production);
    this.serverUrl = options.publicUrl;
  }

  onApplicationBootstrap(): void {
    this.routesDoc = buildRoutesDocument(registeredRoutes(this.modules), this.serverUrl);
  }

  async document(): Promise<OpenApiDocument> {
    this.routesDoc ??= buildRoutesDocument(registeredRoutes(this.modules), this.serverUrl);
    const [collections, singles, fieldGroups] = await Promise.all([
      this.schema.all('collection'),
      this.schema.all('single'),
      this.schema.all('field-group'),
    ]);
    const key = [...collections, ...singles, ...fieldGroups].map(versionOf).join('|');
    if (this.cached?.key !== key) {
      this.cached = { key, doc: withContent(this.routesDoc, { collections, singles, fieldGroups }) };
    }
    return this.cached.doc;
  }
}

const versionOf = (d: Definition): string => `${d.kind}:${d.slug}:${new Date(d.updatedAt).getTime()}`;
