import { ConfigError, loadEnv } from './config/env';
import { startServer } from './server';

/**
 * The standalone server's life: start, then on SIGTERM drain and on SIGINT stop, then exit.
 * `beforeExit` runs last (the tracing's flush).
 */
export async function run(beforeExit: () => Promise<void> = async () => undefined): Promise<void> {
  const exit = (code: number) => {
    void beforeExit().finally(() => process.exit(code));
  };
  try {
    await serve(exit);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
    } else {
      process.stderr.write(
        `svc failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
    }
    exit(1);
  }
}

async function serve(exit: (code: number) => void): Promise<void> {
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
      () => exit(0),
      (e: unknown) => {
        server.log.error({ err: e }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
