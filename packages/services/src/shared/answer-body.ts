/**
 * The one reader of what a network or a user's server answers (docs/security.md, Outbound
 * requests): every byte of it is hostile, its size included. A body is read up to a cap and
 * no further: past the cap the body is cancelled, which closes the connection, so a server
 * streaming gigabytes costs the cap and the socket's buffers, never its whole answer. The caps
 * count the bytes as decoded (a compressed answer is capped at what it inflates to).
 */

/** Far more than any JSON answer a network gives (a token, a profile, a page of Pages). */
export const ANSWER_LIMIT = 5 * 1024 * 1024;
/** The most of an error's body kept: a network's message, never a whole page. */
export const ERROR_BODY_LIMIT = 8 * 1024;

/** An answer larger than its cap, left unread past it. */
export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge';
  constructor(readonly limit: number) {
    super(`The answer was larger than ${inWords(limit)}.`);
  }
}

/** A cap as people read it: `5 MiB`, `8 KiB`. */
export const inWords = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;

/** Stops the download: the connection is closed (a body half read cannot be reused). */
const cancel = (body: ReadableStream<Uint8Array>) => body.cancel().catch(() => undefined);

/**
 * The first `limit` bytes of `res`'s body, and whether that was all of it. More than that is
 * never read: the body is cancelled as soon as it goes past `limit`.
 */
async function readUpTo(res: Response, limit: number) {
  const { body } = res;
  if (!body) return { bytes: Buffer.alloc(0), complete: true };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks, size), complete: true };
      if (size + value.byteLength > limit) {
        chunks.push(value.subarray(0, limit - size));
        return { bytes: Buffer.concat(chunks, limit), complete: false };
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
    await cancel(body);
  }
}

/**
 * `res`'s whole body as text, at most `limit` bytes of it: a longer one throws `AnswerTooLarge`,
 * read no further (one that says so in its Content-Length is not read at all).
 */
export async function readAnswerText(res: Response, limit = ANSWER_LIMIT): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  // A compressed body's length says nothing of what it inflates to.
  if (declared > limit && !res.headers.has('content-encoding')) {
    if (res.body) await cancel(res.body);
    throw new AnswerTooLarge(limit);
  }
  const { bytes, complete } = await readUpTo(res, limit);
  if (!complete) throw new AnswerTooLarge(limit);
  return bytes.toString('utf8');
}

/**
 * The start of `res`'s body as text, at most `limit` bytes (an error's body, whose first bytes
 * say what went wrong); the rest is never read. Nothing when the body fails on the way.
 */
export async function readAnswerStart(res: Response, limit = ERROR_BODY_LIMIT): Promise<string> {
  try {
    return (await readUpTo(res, limit)).bytes.toString('utf8');
  } catch {
    return '';
  }
}
