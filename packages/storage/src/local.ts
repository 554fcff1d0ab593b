import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type StorageDriver } from './driver';

/**
 * Files under one directory (by default `<CHORUS_DATA_DIR>/media`). Bytes are written to a
 * temporary name and renamed into place once complete, so a failed upload leaves nothing
 * behind and a reader never sees half a file.
 */
export function localDiskStorage(root: string): StorageDriver {
  const pathOf = (key: string) => join(root, assertKey(key));
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      const stream = createReadStream(pathOf(key), range && { start: range.start, end: range.end });
      // Opening fails asynchronously: wait for it, to answer "absent" rather than a broken stream.
      return new Promise<Readable | null>((resolve, reject) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', (error: NodeJS.ErrnoException) =>
          error.code === 'ENOENT' ? resolve(null) : reject(error),
        );
      });
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
