import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no types; its API here is `run()` and `close()`.
import S3rver from 's3rver';
import { s3Storage } from './s3';

/**
 * A real S3-compatible server (s3rver) on a loopback port, over a temporary directory, for
 * tests of the S3 path: the SDK speaks real HTTP and SigV4 to it.
 */
export async function startS3Server(bucket = 'chorus') {
  const directory = await mkdtemp(join(tmpdir(), 'chorus-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const options = {
    bucket,
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  };
  return {
    endpoint,
    directory,
    options,
    storage: s3Storage(options),
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
