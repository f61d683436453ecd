import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getSwaggerAssetsAbsoluteFSPath } from '@nestjs/swagger/dist/swagger-ui';

export const DOCS_PATH = '/admin/api/docs';
export const DOCUMENT_PATH = '/admin/api/openapi.json';

export interface DocsAsset {
  type: string;
  body: string | Buffer;
}

/**
 * The Swagger UI page: its assets come from swagger-ui-dist (no CDN) and its start-up script is a
 * file of its own, so the page runs under a CSP without 'unsafe-inline' scripts.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc API</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

/** Swagger UI renders inline styles; scripts come only from this origin. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const INIT_JS = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCUMENT_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  withCredentials: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout'
});
`;

const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const loaded = new Map<string, DocsAsset>();

/** An asset of the docs page by its file name, or undefined (read from disk once). */
export function docsAsset(name: string): DocsAsset | undefined {
  if (name === 'init.js') {
    return { type: 'text/javascript; charset=utf-8', body: INIT_JS };
  }
  const type = Object.prototype.hasOwnProperty.call(FILES, name) ? FILES[name] : undefined;
  if (!type) {
    return undefined;
  }
  let asset = loaded.get(name);
  if (!asset) {
    asset = { type, body: readFileSync(join(getSwaggerAssetsAbsoluteFSPath(), name)) };
    loaded.set(name, asset);
  }
  return asset;
}
