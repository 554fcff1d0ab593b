import { createHash } from 'node:crypto';
import { MEDIA_TYPES } from '@chorus/validators';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { AppError } from '../shared/errors';

export type MediaType = (typeof MEDIA_TYPES)[number];

/** file-type reads at most this many bytes to recognise a format. */
const SNIFF_BYTES = 4100;
/** Image dimensions sit in the header; JPEG's can follow large EXIF segments. */
const HEADER_BYTES = 512 * 1024;

/** APNG is a PNG that animates: served and sized as one. */
const ALIASES: Record<string, MediaType> = { 'image/apng': 'image/png' };

const asBuffer = (chunk: Uint8Array) =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

const isMediaType = (mime: string): mime is MediaType =>
  (MEDIA_TYPES as readonly string[]).includes(mime);

/** What the bytes say they are, or 415 for anything not accepted (docs/media.md). */
async function detectType(head: Buffer): Promise<MediaType> {
  const detected = await fileTypeFromBuffer(head);
  const mime = detected && (ALIASES[detected.mime] ?? detected.mime);
  if (mime && isMediaType(mime)) return mime;
  throw new AppError(
    'unsupported_media_type',
    `The file's content is ${detected ? `${detected.mime}` : 'of no recognised type'}; JPEG, PNG, GIF, WebP, MP4 and PDF are accepted.`,
    { accepted: [...MEDIA_TYPES] },
  );
}

/**
 * The most pixels an image may declare per side: JPEG's and GIF's own ceiling, far past any
 * real photo or graphic. A PNG's header can claim 2^32 − 1, which no column (nor viewer) holds.
 */
export const MAX_IMAGE_SIDE = 65_535;

/** Where each fixed-layout format's width and height end (JPEG's sit after its segments). */
const SIZE_FIELDS_END: Partial<Record<MediaType, number>> = {
  'image/png': 24, // signature 8, IHDR length and type 8, width 4, height 4
  'image/gif': 10, // signature 6, width 2, height 2
  'image/webp': 25, // RIFF header 12, chunk header 8, VP8L's size fields to byte 25 (VP8's: 30)
};

/**
 * Pixel size of an image from its header. An image without a readable one is refused (415);
 * one declaring no pixels, or more than MAX_IMAGE_SIDE on a side, is a 400 on `file`.
 */
export function dimensions(type: MediaType, header: Buffer) {
  if (!type.startsWith('image/')) return { width: null, height: null };
  const damaged = () =>
    new AppError('unsupported_media_type', 'The image is damaged: its size cannot be read.');
  // A file cut off before its size fields: image-size reads the missing bytes as zeros, and
  // the image would be said to declare 0 pixels.
  if (header.length < (SIZE_FIELDS_END[type] ?? 0)) throw damaged();
  let size: { width: number; height: number };
  try {
    size = imageSize(header);
  } catch {
    throw damaged();
  }
  const { width, height } = size;
  const sane = (side: number) => Number.isInteger(side) && side >= 1 && side <= MAX_IMAGE_SIDE;
  if (!sane(width) || !sane(height)) {
    const message = `The image declares ${width} × ${height} pixels; each side must be 1 to ${MAX_IMAGE_SIDE.toLocaleString('en')}.`;
    throw new AppError('validation_error', message, { issues: [{ path: 'file', message }] });
  }
  return { width, height };
}

/** An upload over its limit: 413 with `details.limit` (docs/media.md), however it was noticed. */
export const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', `The file exceeds the upload limit of ${maxBytes} bytes.`, {
    limit: maxBytes,
  });

/**
 * Reads an upload once, as it streams: recognises its type from the first bytes (before any
 * byte is stored), then passes every chunk on while hashing and counting it, failing the
 * stream as soon as it passes `maxBytes`. Only the header is kept in memory.
 */
export async function inspectUpload(source: AsyncIterable<Uint8Array>, maxBytes: number) {
  const iterator = source[Symbol.asyncIterator]();
  const sniffed: Buffer[] = [];
  let sniffedBytes = 0;
  while (sniffedBytes < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) break;
    sniffed.push(asBuffer(next.value));
    sniffedBytes += next.value.byteLength;
  }
  if (sniffedBytes > maxBytes) throw tooLarge(maxBytes);
  const type = await detectType(Buffer.concat(sniffed));
  const hash = createHash('sha256');
  const header: Buffer[] = [];
  const result = { type, size: 0, sha256: '', header: Buffer.alloc(0) };

  async function* chunks() {
    let headerBytes = 0;
    const pass = (chunk: Buffer) => {
      result.size += chunk.byteLength;
      if (result.size > maxBytes) throw tooLarge(maxBytes);
      hash.update(chunk);
      if (headerBytes < HEADER_BYTES) {
        header.push(chunk.subarray(0, HEADER_BYTES - headerBytes));
        headerBytes += chunk.byteLength;
      }
      return chunk;
    };
    for (const chunk of sniffed) yield pass(chunk);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      yield pass(asBuffer(next.value));
    }
    result.sha256 = hash.digest('hex');
    result.header = Buffer.concat(header);
  }

  return { type, chunks: chunks(), result };
}
