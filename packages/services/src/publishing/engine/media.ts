import { Readable } from 'node:stream';
import type { media } from '@chorus/db';
import type { StorageDriver } from '@chorus/storage';
import type { PublishMedia } from '../provider';

export type MediaRow = typeof media.$inferSelect;

/** Makes a signed URL of a media file's bytes that expires within the hour (media-url.ts). */
export type MediaSigner = (row: MediaRow) => string;

/** Where the engine reads attachments: the storage driver, and signed URLs for URL fetchers. */
export interface MediaSource {
  storage?: StorageDriver;
  sign?: MediaSigner;
}

/**
 * An attachment as providers read it: the bytes streamed from storage at each `open` (never
 * whole in memory), or a signed URL for networks that fetch media themselves.
 */
export function publishMedia(row: MediaRow, source: MediaSource): PublishMedia {
  return {
    id: row.id,
    mimeType: row.mimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    altText: row.altText,
    async open() {
      if (!source.storage) throw new Error('no media storage is configured for the worker');
      const stream = await source.storage.get(row.storageKey);
      if (!stream) throw new Error(`the bytes of ${row.id} are missing from storage`);
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    },
    async signedUrl() {
      if (!source.sign)
        throw new Error('this worker has no signer for media links (Instagram, Threads)');
      return source.sign(row);
    },
  };
}
