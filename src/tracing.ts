import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * OpenTelemetry for the standalone server, started by main.ts before anything else loads:
 * incoming requests (an incoming `traceparent` is continued), Express and Nest, PostgreSQL
 * queries, Redis commands and outgoing HTTP (webhook deliveries), exported over OTLP/HTTP to
 * the endpoint of the standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`...). Statement texts are recorded without
 * their parameters and Redis commands without their keys, so no value a user sent reaches the
 * traces.
 */
export function startTracing(): NodeSDK {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || 'svc',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation(),
      new ExpressInstrumentation(),
      new NestInstrumentation(),
      // Only inside a traced request or job: pg-boss's polls would otherwise be a trace each.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      // The command's name only: its keys hold client addresses and ids.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  return sdk;
}
