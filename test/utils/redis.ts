import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port the system just handed out on loopback, free again once this returns. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A redis-server of the test's own on a free loopback port, with no persistence, so a test can
 * kill it, stop it and start it again on the same port without ever touching the machine's own
 * Redis (6379). Every instance is killed when the test process exits, should `stop` be missed.
 */
export class TestRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<TestRedis> {
    const redis = new TestRedis(await freePort());
    await redis.restart();
    return redis;
  }

  /** Starts redis-server on this port (again) and resolves once it accepts connections. */
  async restart(): Promise<void> {
    if (this.child) {
      throw new Error('redis-server is running already');
    }
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    const killOnExit = () => child.kill('SIGKILL');
    process.on('exit', killOnExit);
    child.once('exit', () => {
      process.off('exit', killOnExit);
      if (this.child === child) {
        this.child = undefined;
      }
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error('redis-server did not start within 10 s')), 10_000);
      const onExit = (code: number | null) => fail(new Error(`redis-server exited (${code})`));
      function settle() {
        clearTimeout(timer);
        child.off('error', fail).off('exit', onExit);
        child.stdout!.removeAllListeners('data');
        child.stderr!.removeAllListeners('data');
      }
      function fail(e: Error) {
        settle();
        child.kill('SIGKILL');
        reject(new Error(`${e.message}\n${output}`));
      }
      child.once('error', fail).once('exit', onExit);
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          settle();
          resolve();
        }
      });
    });
    // Nothing reads them any more: drain the pipes so a chatty server never blocks on them.
    child.stdout!.resume();
    child.stderr!.resume();
  }

  /** SIGKILL: the server vanishes at once, mid-request, as in a crash; its counters are lost. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGSTOP: the server keeps its connections open but answers nothing (a hung Redis). */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    this.resume();
    await this.signal('SIGKILL');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) {
      return;
    }
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
}
