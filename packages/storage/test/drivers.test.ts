import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDiskStorage, storageFromEnv, type StorageDriver } from '../src';
import { startS3Server } from '../src/testing';

/** Files under a directory, recursively, as relative paths. */
async function filesUnder(dir: string) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length));
}

/** A body that sends some bytes, then fails, as an upload over its limit does. */
function failingBody() {
  return Readable.from(
    (async function* () {
      yield Buffer.from('first bytes ');
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('upload refused');
    })(),
  );
}

let root: string;
let s3: Awaited<ReturnType<typeof startS3Server>>;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'chorus-local-'));
  s3 = await startS3Server();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await s3.close();
});

const drivers: [string, () => StorageDriver, () => string][] = [
  ['local disk', () => localDiskStorage(root), () => root],
  ['S3 (s3rver on loopback)', () => s3.storage, () => s3.directory],
];

describe.each(drivers)('%s', (_name, driver, directory) => {
  it('puts a stream, gets the same bytes back, deletes them', async () => {
    const store = driver();
    const bytes = Buffer.from('hello, storage ✓'.repeat(1000));
    await store.put('acc_1/med_round', Readable.from([bytes]), { contentType: 'text/plain' });
    const stream = await store.get('acc_1/med_round');
    expect(stream).not.toBeNull();
    expect(await text(stream as Readable)).toBe(bytes.toString());
    await store.delete('acc_1/med_round');
    expect(await store.get('acc_1/med_round')).toBeNull();
  });

  it('gets a range of bytes, both ends included', async () => {
    const store = driver();
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await store.put('acc_1/med_range', Readable.from([bytes]), { contentType: 'video/mp4' });
    // Not 0-0: s3rver reads an end of 0 as "to the end" (S3 itself does not).
    for (const [start, end] of [
      [0, 9],
      [1, 1],
      [100, 1099],
      [4990, 4999],
    ] as const) {
      const stream = await store.get('acc_1/med_range', { start, end });
      const chunks: Buffer[] = [];
      for await (const chunk of stream as Readable) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(bytes.subarray(start, end + 1))).toBe(true);
    }
    await store.delete('acc_1/med_range');
  });

  it('answers null for an absent key, and deleting one is not an error', async () => {
    const store = driver();
    expect(await store.get('acc_1/med_absent')).toBeNull();
    await expect(store.delete('acc_1/med_absent')).resolves.toBeUndefined();
  });

  it('leaves nothing behind when the body fails midway', async () => {
    const store = driver();
    const before = await filesUnder(directory());
    await expect(
      store.put('acc_1/med_failed', failingBody(), { contentType: 'image/png' }),
    ).rejects.toThrow();
    expect(await store.get('acc_1/med_failed')).toBeNull();
    expect(await filesUnder(directory())).toEqual(before);
  });

  it('refuses keys that could leave the store', async () => {
    const store = driver();
    for (const key of ['../escape', 'acc_1/../../x', '/abs', 'a//b', '']) {
      await expect(store.get(key)).rejects.toThrow(/Invalid storage key/);
    }
  });
});

describe('storageFromEnv', () => {
  it('is local disk under the data directory by default', async () => {
    const store = storageFromEnv({}, { dataDir: root });
    await store.put('acc_2/med_env', Readable.from([Buffer.from('x')]), { contentType: 'x/y' });
    expect(await filesUnder(join(root, 'media'))).toEqual(['/acc_2/med_env']);
  });

  it('is the configured S3 bucket with CHORUS_STORAGE=s3', async () => {
    const store = storageFromEnv(
      {
        CHORUS_STORAGE: 's3',
        CHORUS_S3_BUCKET: 'chorus',
        CHORUS_S3_ENDPOINT: s3.endpoint,
        CHORUS_S3_ACCESS_KEY_ID: 'S3RVER',
        CHORUS_S3_SECRET_ACCESS_KEY: 'S3RVER',
        CHORUS_S3_FORCE_PATH_STYLE: 'true',
        CHORUS_S3_PREFIX: 'tenant-a/',
      },
      { dataDir: root },
    );
    await store.put('acc_3/med_env', Readable.from([Buffer.from('in s3')]), {
      contentType: 'text/plain',
    });
    expect(await text((await s3.storage.get('tenant-a/acc_3/med_env')) as Readable)).toBe('in s3');
  });

  it('names the setting that is wrong', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ CHORUS_STORAGE: 'ftp' }, /CHORUS_STORAGE/],
      [{ CHORUS_STORAGE: 's3' }, /CHORUS_S3_BUCKET/],
      [{ CHORUS_STORAGE: 's3', CHORUS_S3_BUCKET: 'b', CHORUS_S3_ENDPOINT: 'nope' }, /ENDPOINT/],
      [{ CHORUS_STORAGE: 's3', CHORUS_S3_BUCKET: 'b', CHORUS_S3_ACCESS_KEY_ID: 'k' }, /SECRET/],
      [
        { CHORUS_STORAGE: 's3', CHORUS_S3_BUCKET: 'b', CHORUS_S3_FORCE_PATH_STYLE: 'yes' },
        /PATH_STYLE/,
      ],
    ];
    for (const [env, message] of bad) {
      expect(() => storageFromEnv(env, { dataDir: root })).toThrow(message);
    }
  });
});
