import { AppError } from '@chorus/services';

/** The cap of every JSON or form body, tRPC batches included (docs/api.md: 1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Bodies read whole, decoded at once: one decoder for every request, as none keeps state. */
const wholeBody = utf8Text(
  () => new AppError('invalid_json', 'The request body is not valid UTF-8.'),
);

/**
 * Reads at most `limit` bytes of a request body as text, refusing larger bodies (declared or
 * chunked) with 413 `payload_too_large` as soon as they pass the limit, never buffering them,
 * and bytes that are not UTF-8 with 400 `invalid_json`.
 */
export async function readCapped(req: Request, limit: number): Promise<string> {
  const tooLarge = () =>
    new AppError('payload_too_large', `The request body exceeds ${limit} bytes.`, { limit });
  if (Number(req.headers.get('content-length') ?? 0) > limit) throw tooLarge();
  if (!req.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return wholeBody(Buffer.concat(chunks));
}

/**
 * The one rule for text bodies (JSON, forms, a CSV import): they are UTF-8 (RFC 8259; forms as
 * the URL standard encodes them), decoded strictly, a byte that is not UTF-8 refused with
 * `refusal()`. Replacing the bytes (U+FFFD) would store text the client never sent. Answers a
 * decoder, for bodies read whole or for one body read chunk by chunk (`more` while chunks are
 * to come: a character split between two chunks is kept for the next, and one cut off at the
 * end is refused): a decoder fed chunks serves that body alone.
 */
export function utf8Text(refusal: () => AppError) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return (bytes: Uint8Array, more = false) => {
    try {
      return decoder.decode(bytes, { stream: more });
    } catch {
      throw refusal();
    }
  };
}

/**
 * Bodies are read as sent: one in a content coding (`Content-Encoding: gzip`) would be read as
 * its compressed bytes and called malformed, so it is refused for what it is, 415 with
 * `Accept-Encoding: identity` (RFC 9110, 15.5.16 and 12.5.3).
 */
export function refuseEncodedBody(req: Request, headers: Headers) {
  const coding = req.headers.get('content-encoding')?.trim().toLowerCase();
  if (!coding || coding === 'identity') return;
  headers.set('Accept-Encoding', 'identity');
  throw new AppError(
    'unsupported_media_type',
    'A body with a Content-Encoding is not accepted: send it uncompressed.',
  );
}
