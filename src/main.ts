import { ConfigError, loadEnv } from './config/env';
import { startServer } from './server';

async function main(): Promise<void> {
  // Its last boot line says where it listens.
  const server = await startServer();
  let closing = false;
  const drainSeconds = loadEnv().drainSeconds;
  // SIGTERM (a deploy, docker stop, a rolling restart) drains; SIGINT (Ctrl-C) stops at once.
  const shutdown = (signal: 'SIGTERM' | 'SIGINT') => {
    if (closing) {
      return;
    }
    closing = true;
    server.log.info(`${signal} received, shutting down`);
    const draining = signal === 'SIGTERM';
    // Bounded: a stuck close must not keep the process (and its port) alive forever.
    setTimeout(() => process.exit(1), (draining ? drainSeconds * 1000 : 0) + 15_000).unref();
    (draining ? server.drain(drainSeconds) : server.close()).then(
      () => process.exit(0),
      (e: unknown) => {
        server.log.error({ err: e }, 'shutdown failed');
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
