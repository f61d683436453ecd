import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sendFileRange } from '../../src/modules/media/storage/file-sender';

/**
 * A socket stand-in that takes its bytes only when it "flushes" a write, a few ticks later (as
 * libuv does on a full socket), and only then calls back: a buffer reused before that shows here.
 */
class SlowSocket extends Writable {
  readonly received: Buffer[] = [];
  constructor(private readonly failAfter = Infinity) {
    super({ highWaterMark: 1 });
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    setTimeout(() => {
      if (this.received.length >= this.failAfter) {
        cb(new Error('socket reset'));
        return;
      }
      this.received.push(Buffer.from(chunk));
      cb();
    }, 2);
  }
}

describe('sendFileRange (pooled buffers)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sender-'));
  const fileOf = (name: string, tag: string, bytes: number) => {
    let s = '';
    for (let n = 0; s.length < bytes; n++) {
      s += `${tag} ${n}\n`;
    }
    const data = Buffer.from(s.slice(0, bytes));
    writeFileSync(join(dir, name), data);
    return data;
  };
  const a = fileOf('a', 'alpha', 1_000_003);
  const b = fileOf('b', 'bravo', 600_001);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function send(name: string, start: number, end: number, out: SlowSocket): Promise<Buffer> {
    const file = await open(join(dir, name), 'r');
    try {
      await sendFileRange(file, start, end, out);
    } finally {
      await file.close();
    }
    return Buffer.concat(out.received);
  }

  it('sends each file exact while many sends share the pool with slow flushes', async () => {
    const sends = Array.from({ length: 12 }, (_, i) =>
      i % 2 ? send('b', 0, b.length - 1, new SlowSocket()) : send('a', 0, a.length - 1, new SlowSocket()),
    );
    const got = await Promise.all(sends);
    got.forEach((bytes, i) => expect(bytes.equals(i % 2 ? b : a)).toBe(true));
  });

  it('sends a range across chunk boundaries, and ends the stream', async () => {
    const out = new SlowSocket();
    const ended = new Promise((resolve) => out.on('finish', resolve));
    expect((await send('a', 262_140, 524_300, out)).equals(a.subarray(262_140, 524_301))).toBe(true);
    await ended;
  });

  it('rejects when the file is shorter than promised, and when the socket fails or closes', async () => {
    await expect(send('b', 0, b.length + 10, new SlowSocket())).rejects.toThrow(/shorter/);
    const failing = new SlowSocket(1);
    failing.on('error', () => undefined); // a socket's errors go to the server, not to the sender
    await expect(send('a', 0, a.length - 1, failing)).rejects.toThrow(/socket reset/);
    const closing = new SlowSocket();
    setTimeout(() => closing.destroy(), 3);
    await expect(send('a', 0, a.length - 1, closing)).rejects.toThrow();
  });
});
