import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { keepTag } from './entry-tag';

/**
 * What content asks of the media module for the built-in media collection (CONTRACTS 11). Content
 * sits below media in the module layers, so it cannot call the media module: the media module
 * registers its handler here at boot (`MediaHooks.register`), and content calls it when a request
 * touches media entries. Without a handler, media entries cannot be created (415) and are answered
 * as stored.
 */
export interface MediaHandler {
  /**
   * `POST /collections/media/entries`: reads the multipart upload of `req`, checks the form's text
   * fields with `checkFields` (which throws the 400 of a content write), and stores the file and
   * its variants under a new id. Throws the request's refusal (400, 413, 415) with nothing stored.
   */
  receive(
    req: Request,
    checkFields: (fields: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<ReceivedMedia>;
  /** A media entry as the API answers it (`url`, `sizes` with URLs): pure, no query. */
  present(entry: Record<string, unknown>): Record<string, unknown>;
  /**
   * Inside the transaction deleting media entries: queues the removal of their stored files, so
   * it happens exactly when the delete commits (a durable job, retried while storage fails).
   */
  removing(em: EntityManager, ids: readonly string[]): Promise<void>;
  /** After that delete committed: a first try at removing the files now (never throws). */
  removed(ids: readonly string[]): Promise<void>;
}

/** An upload whose files are stored, waiting for its row. */
export interface ReceivedMedia {
  id: string;
  /** The row's column values: the file's description and the checked text fields. */
  values: Record<string, unknown>;
  /** Removes the stored files: the row's insert failed. Never throws. */
  discard(): Promise<void>;
}

/** The one place the media module's handler is registered and content finds it. */
@Injectable()
export class MediaHooks {
  private current: MediaHandler | null = null;

  register(handler: MediaHandler): void {
    if (this.current && this.current !== handler) {
      throw new Error('MediaHooks: a media handler is registered already');
    }
    this.current = handler;
  }

  get handler(): MediaHandler | null {
    return this.current;
  }

  /** Presents media entries (in place) when a handler is registered. */
  present<T extends Record<string, unknown>>(entries: T[]): T[] {
    const h = this.current;
    if (!h) {
      return entries;
    }
    for (let i = 0; i < entries.length; i++) {
      entries[i] = keepTag(entries[i], h.present(entries[i])) as T;
    }
    return entries;
  }
}
