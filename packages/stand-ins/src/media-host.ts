import { randomBytes } from 'node:crypto';
import { sendJson, startStandIn } from './http-kit';

/**
 * Media for provider tests, shaped like the engine's `PublishMedia`: bytes streamed on each
 * `open()`, and a URL on a loopback server standing in for the product's signed media URLs,
 * which networks that fetch by URL (Instagram, Threads) really fetch.
 */
export interface TestMedia {
  id: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  altText: string | null;
  open(): Promise<ReadableStream<Uint8Array>>;
  signedUrl(): Promise<string>;
}

export async function startMediaHost() {
  const files = new Map<string, { bytes: Buffer; mimeType: string }>();
  const server = await startStandIn((req, res) => {
    const file = files.get(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    if (!file) return sendJson(res, 404, { error: 'not found' });
    res.writeHead(200, {
      'content-type': file.mimeType,
      'content-length': String(file.bytes.length),
    });
    res.end(file.bytes);
  });
  return {
    url: server.url,
    /** How often each media file was fetched. */
    fetches: () => server.received.map((request) => request.url.slice(1)),
    add(
      bytes: Buffer,
      facts: { mimeType: string; width?: number; height?: number; altText?: string },
    ): TestMedia {
      const id = `med_${randomBytes(8).toString('hex')}`;
      files.set(id, { bytes, mimeType: facts.mimeType });
      return {
        id,
        mimeType: facts.mimeType,
        size: bytes.length,
        width: facts.width ?? null,
        height: facts.height ?? null,
        altText: facts.altText ?? null,
        open: async () => new Blob([new Uint8Array(bytes)]).stream(),
        signedUrl: async () => `${server.url}/${id}`,
      };
    },
    close: () => server.close(),
  };
}
