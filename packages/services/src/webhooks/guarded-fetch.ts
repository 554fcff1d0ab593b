import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { guardedRequest } from './guarded-request';
import { TargetUnresolved } from './targets';

/** Statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/** Like fetch's own: a host that does not resolve is a request that never left (ENOTFOUND). */
class Unresolved extends Error {
  readonly code = 'ENOTFOUND';
}

function responseOf(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    headers.append(res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '');
  }
  const status = res.statusCode ?? 0;
  const empty = method === 'HEAD' || NO_BODY.has(status);
  if (empty) res.resume();
  const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

/**
 * `fetch` to an address a user chose (a connection's own server): `guardedRequest`, the
 * webhooks' sender and rule (docs/webhooks.md, Safety), answered as fetch answers. A refusal
 * throws `TargetRefused` before any byte is sent; a host that does not resolve throws an
 * `ENOTFOUND` error, as fetch does; the signal aborting throws its reason, the check's DNS
 * included. Redirects are never followed (a 3xx is answered as it is), and no compression is
 * asked for (the answer's bytes are as the server sent them).
 */
export async function guardedFetch(
  input: string | URL,
  init: RequestInit & { duplex?: 'half' },
  allowPrivate: boolean,
): Promise<Response> {
  const url = new URL(input);
  // fetch's own reading of the body and headers (a form's content type, a string's length).
  const request = new Request(url, init);
  const streamed = init.body instanceof ReadableStream;
  // The request's own body, which Chorus wrote, not an answer: no cap to apply.
  // eslint-disable-next-line no-restricted-syntax
  const bytes = request.body && !streamed ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'Chorus' };
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (bytes) headers['content-length'] = String(bytes.length);
  const body =
    streamed && request.body
      ? Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
      : bytes;
  let res: IncomingMessage;
  try {
    res = await guardedRequest(url, {
      method: request.method,
      headers,
      body,
      allowPrivate,
      signal: request.signal,
    });
  } catch (error) {
    if (error instanceof TargetUnresolved) throw new Unresolved(error.message);
    throw error;
  }
  try {
    return responseOf(res, request.method);
  } catch (error) {
    res.destroy();
    throw error;
  }
}
