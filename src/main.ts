/**
 * The standalone server's entry (`npm start`, the image). Tracing, when configured, must patch
 * http, Express, Nest, pg and ioredis before anything loads them, so the rest is required after
 * it; without OTEL_EXPORTER_OTLP_ENDPOINT none of it is loaded.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the load order is the point here */
import { tracingConfigured } from './config/tracing-env';

const tracing = tracingConfigured(process.env)
  ? (require('./tracing') as typeof import('./tracing')).startTracing()
  : undefined;
const { run } = require('./run') as typeof import('./run');

void run(async () => {
  await tracing?.shutdown().catch(() => undefined);
});
