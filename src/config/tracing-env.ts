/**
 * Whether OpenTelemetry tracing is configured: the standard exporter endpoint variables
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces-only one), unless `OTEL_SDK_DISABLED=true`.
 */
export function tracingConfigured(source: NodeJS.ProcessEnv): boolean {
  if (source.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') {
    return false;
  }
  return Boolean(source.OTEL_EXPORTER_OTLP_ENDPOINT || source.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
