import { createHash, randomBytes } from 'node:crypto';
import { createServer, connect, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { newId } from '../../src/shared/ids';
import type { PublishMedia, PublishProgress, PublishRequest } from '../../src/publishing';

/** What provider tests share: a publish request that records its progress, and streaming probes. */

/** A target id as the engine makes them: `tgt_` and a ULID (its first 48 bits are milliseconds). */
export const targetId = () => newId('post').replace('post_', 'tgt_');

export function publishRequest(opts: {
  channel: PublishRequest['channel'];
  parts: { text: string; media?: PublishMedia[] }[];
  firstComment?: string | null;
}) {
  const saved: PublishProgress[] = [];
  const request: PublishRequest = {
    targetId: targetId(),
    revision: 0,
    channel: opts.channel,
    parts: opts.parts.map((part) => ({ text: part.text, media: part.media ?? [] })),
    firstComment: opts.firstComment ?? null,
    progress: {},
    saveProgress: async (progress) => {
      saved.push(structuredClone(progress));
    },
  };
  return {
    request,
    saved,
    /** The same target attempted again, continuing from the progress saved so far. */
    retry: (): PublishRequest => ({ ...request, progress: saved.at(-1) ?? {} }),
  };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** A TCP proxy in front of a server that counts the bytes clients send through it. */
export async function countingProxy(target: string) {
  const { hostname, port } = new URL(target);
  let forwarded = 0;
  const waiters = new Set<{ bytes: number; resolve: () => void }>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    client.on('data', (chunk: Buffer) => {
      forwarded += chunk.length;
      for (const waiter of waiters) {
        if (forwarded >= waiter.bytes) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
    });
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Resolves once `bytes` have gone through; rejects after `timeoutMs`. */
    reached(bytes: number, timeoutMs = 10_000) {
      if (forwarded >= bytes) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = { bytes, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter))
            reject(new Error(`only ${forwarded} of ${bytes} bytes sent: the body was held back`));
        }, timeoutMs).unref();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const CHUNK = 64 * 1024;
/** Every chunk holds the same bytes: cheap to make, and the order still shows in the hash. */
const PATTERN = Uint8Array.from({ length: CHUNK }, (_, i) => (i * 31) & 0xff);

/**
 * Media made as it is read, never whole in memory: past `gateAt` bytes, the next chunk waits
 * for `gate()` (the network having received part of it). A provider that read it all before
 * sending would wait forever, and `gate` rejects instead.
 */
export function gatedMedia(opts: {
  mimeType: string;
  size: number;
  gateAt: number;
  gate: () => Promise<void>;
}): PublishMedia & { sha256: string } {
  const hash = createHash('sha256');
  for (let offset = 0; offset < opts.size; offset += CHUNK) {
    hash.update(PATTERN.subarray(0, Math.min(CHUNK, opts.size - offset)));
  }
  return {
    id: `med_${randomBytes(6).toString('hex')}`,
    mimeType: opts.mimeType,
    size: opts.size,
    width: null,
    height: null,
    altText: null,
    sha256: hash.digest('hex'),
    async open() {
      let offset = 0;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            if (offset >= opts.size) return controller.close();
            if (offset >= opts.gateAt) await opts.gate();
            const length = Math.min(CHUNK, opts.size - offset);
            controller.enqueue(PATTERN.slice(0, length));
            offset += length;
          },
        },
        { highWaterMark: 0 },
      );
    },
    signedUrl: async () => {
      throw new Error('not served by URL');
    },
  };
}

const MiB = 1024 * 1024;

/**
 * Sends 10 MiB of video made as it is read through a byte-counting proxy to `target`: past
 * 6 MiB read, the rest waits until the network has received 4 MiB, so a provider that read
 * media whole before sending fails. Answers what `send` answers and the bytes' sha256.
 */
export async function sendStreamed<T>(
  target: string,
  send: (apiUrl: string, video: PublishMedia) => Promise<T>,
): Promise<{ sent: T; sha256: string }> {
  const proxy = await countingProxy(target);
  try {
    const video = gatedMedia({
      mimeType: 'video/mp4',
      size: 10 * MiB,
      gateAt: 6 * MiB,
      gate: () => proxy.reached(4 * MiB),
    });
    return { sent: await send(proxy.url, video), sha256: video.sha256 };
  } finally {
    await proxy.close();
  }
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What `validate` sees of an attachment of this type (the record's facts, no bytes). */
export const mediaFacts = (mimeType: string) => ({
  id: mimeType,
  mimeType,
  size: 10,
  width: null,
  height: null,
  altText: null,
});
