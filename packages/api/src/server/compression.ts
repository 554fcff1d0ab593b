import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';
import type { Transform } from 'node:stream';

export type Encoding = 'br' | 'gzip';

/**
 * Bodies smaller than this go as they are: a packet holds them anyway, and compressing them
 * would only cost time (a short page of a list, an error).
 */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Brotli at quality 2, its window fitted to the body: on API JSON it compresses as well as
 * quality 4 (a page of 50 users: 899 bytes against 896) for half the CPU (≈24 µs against 42),
 * and as well as gzip's default or better; the default quality (11) is meant for files
 * compressed once, and takes ~100 times as long. The fitted window spares allocating
 * brotli's 4 MiB default for a 7 KB answer.
 */
const brotliFor = (size?: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 2,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    ...(size
      ? {
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
          [constants.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(16, Math.ceil(Math.log2(size)))),
        }
      : {}),
  },
});
const GZIP: ZlibOptions = { level: constants.Z_DEFAULT_COMPRESSION };

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The encoding to answer in, from Accept-Encoding (RFC 9110 §12.5.3): br or gzip, whichever
 * has the higher weight (br on a tie); `*` stands for both; q=0 refuses. None: identity.
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (header === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const part of String(header).split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  const [br, gz] = [weightOf('br'), weightOf('gzip')];
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : undefined;
}

/**
 * Media types worth compressing: JSON and text (an export's CSV). Never media bytes (images
 * and videos are compressed already) nor anything opaque.
 */
export function compressible(type: string | null | undefined): boolean {
  const essence = (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    essence === 'application/json' ||
    essence.endsWith('+json') ||
    essence === 'application/x-ndjson' ||
    essence.startsWith('text/')
  );
}

/**
 * Up to this size a body is compressed on the event loop: a page of a list takes tens of
 * microseconds, less than the hand-off to zlib's thread pool and back, which on a busy server
 * also waits for a pool thread. Larger bodies go to the pool, so one never stalls the loop.
 */
export const COMPRESS_INLINE_MAX_BYTES = 16 * 1024;

/** A whole body, compressed on the event loop when small, else in zlib's thread pool. */
export async function compressBody(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (body.byteLength <= COMPRESS_INLINE_MAX_BYTES) {
    return encoding === 'br'
      ? brotliCompressSync(body, brotliFor(body.byteLength))
      : gzipSync(body, GZIP);
  }
  return encoding === 'br' ? brotliAsync(body, brotliFor(body.byteLength)) : gzipAsync(body, GZIP);
}

/** A compressor for a streamed body. */
export const compressStream = (encoding: Encoding): Transform =>
  encoding === 'br' ? createBrotliCompress(brotliFor()) : createGzip(GZIP);
