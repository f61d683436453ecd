import { Writable } from 'node:stream';

/** Collects the JSON log lines an app writes, so tests can assert on them (bounded). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    if (this.lines.length < 20_000) {
      this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    }
    done();
  }

  records(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  /** Lines logged while the request with this id was handled. */
  forRequest(requestId: string): string[] {
    return this.lines.filter((l) => l.includes(requestId));
  }

  text(): string {
    return this.lines.join('\n');
  }
}
