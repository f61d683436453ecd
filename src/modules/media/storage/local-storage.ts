import { copyFile, mkdir, open, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { sendFileRange } from './file-sender';
import { checkItemId, checkKey, type MediaStorage, type StoredBody } from './media-storage';

/**
 * Files on the local disk under the media directory (`SVC_MEDIA_DIR`): `<dir>/<id>/<filename>`.
 * A file is written under a temporary name in its folder and renamed into place, so a reader
 * sees the whole file or none.
 */
export class LocalMediaStorage implements MediaStorage {
  readonly kind = 'local';
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private pathOf(key: string): string {
    const path = resolve(this.root, ...checkKey(key).split('/'));
    if (!path.startsWith(this.root + sep)) {
      throw new Error(`media storage key outside the media directory: ${key}`);
    }
    return path;
  }

  async put(key: string, path: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const partial = `${target}.part`;
    try {
      await rename(path, partial);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') {
        throw e;
      }
      // The temporary directory is on another file system: copy, then drop the temporary file.
      await copyFile(path, partial);
      await unlink(path).catch(() => undefined);
    }
    try {
      await rename(partial, target);
    } catch (e) {
      await unlink(partial).catch(() => undefined);
      throw e;
    }
  }

  async open(key: string, range?: { start: number; end: number }): Promise<StoredBody | null> {
    let file;
    try {
      file = await open(this.pathOf(key), 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        return null;
      }
      throw e;
    }
    const handle = file;
    let closed = false;
    const close = () => {
      if (!closed) {
        closed = true;
        void handle.close().catch(() => undefined);
      }
    };
    return {
      send: async (out) => {
        try {
          const end = range ? range.end : (await handle.stat()).size - 1;
          if (end < (range?.start ?? 0)) {
            out.end();
            return;
          }
          await sendFileRange(handle, range?.start ?? 0, end, out);
        } finally {
          close();
        }
      },
      close,
    };
  }

  async download(key: string, path: string): Promise<boolean> {
    try {
      await copyFile(this.pathOf(key), path);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        return false;
      }
      throw e;
    }
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      await rm(this.pathOf(key), { force: true });
    }
  }

  async removeItem(id: string): Promise<void> {
    await rm(join(this.root, checkItemId(id)), { recursive: true, force: true });
  }

  close(): void {}
}
