import type { Readable } from 'node:stream';

/**
 * Where uploaded bytes live, outside the database (docs/media.md). Keys are chosen by the
 * service (`<accountId>/<mediaId>`), never by a client.
 */
export interface StorageDriver {
  /**
   * Streams `body` to `key`. The object appears whole or not at all: when `body` fails (an
   * upload over its limit, a client gone), nothing is left under `key` or beside it.
   */
  put(key: string, body: Readable, options: { contentType: string }): Promise<void>;
  /**
   * The object's bytes as a stream, or only those of `range` (both ends included, within the
   * object: the caller checks it against the stored size), or null when there is no such object.
   */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
}

/** Bytes `start` to `end` of an object, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

const KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

/** Refuses anything but plain path segments, so no key can leave the store's root. */
export function assertKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  return key;
}
