import { ConfigError } from './config/env';
import { startServer } from './server';

async function main(): Promise<void> {
  const server = await startServer();
  process.stdout.write(`svc listening on ${server.url}\n`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      return;
    }
    closing = true;
    process.stdout.write(`${signal} received, shutting down\n`);
    // Bounded: a stuck close must not keep the process (and its port) alive forever.
    setTimeout(() => process.exit(1), 15_000).unref();
    server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`shutdown failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError) {
    process.stderr.write(`${e.message}\n`);
  } else {
    process.stderr.write(`svc failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  }
  process.exit(1);
});
