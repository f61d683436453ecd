import { Inject, Injectable } from '@nestjs/common';
import { SVC_OPTIONS, type SvcOptions } from '../../config/svc-options';
import { imageDimensions, MadeVariant, makeVariant, Semaphore } from './media-images';
import type { ImageSizeRecord } from './media.types';

/**
 * The image work of this process (sharp), at most `media.variantConcurrency` (2) at a time,
 * uploads and regeneration together: a burst of uploads queues here instead of taking every core
 * and the memory of many decoded images.
 */
@Injectable()
export class ImageProcessor {
  private readonly slots: Semaphore;

  constructor(@Inject(SVC_OPTIONS) options: SvcOptions) {
    this.slots = new Semaphore(options.media.variantConcurrency);
  }

  dimensions(path: string): Promise<{ width: number; height: number }> {
    return this.slots.run(() => imageDimensions(path));
  }

  /**
   * Every size of the image at `source`, into `outDir`. All or nothing: when one fails, the others
   * are waited for (none is still writing into `outDir`) and the first failure is thrown.
   */
  async variants(
    source: string,
    sourceMime: string,
    filename: string,
    sizes: readonly ImageSizeRecord[],
    outDir: string,
  ): Promise<MadeVariant[]> {
    const results = await Promise.allSettled(
      sizes.map((size) => this.slots.run(() => makeVariant(source, sourceMime, size, filename, outDir))),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      throw failed.reason;
    }
    return results.map((r) => (r as PromiseFulfilledResult<MadeVariant>).value);
  }
}
