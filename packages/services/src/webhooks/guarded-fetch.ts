import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { checkTarget, guardedLookup, TargetUnresolved } from './targets';

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
 * `fetch` to an address a user chose, under the webhooks' rule (docs/webhooks.md, Safety):
 * the URL is checked now (https, its port, an IP literal's range), and the connection itself
 * resolves the host and refuses a private address, so DNS that changes after the check gains
 * nothing. A refusal throws `TargetRefused` before any byte is sent; a host that does not
 * resolve throws an `ENOTFOUND` error, as fetch does. Redirects are never followed (a 3xx is
 * answered as it is), each call has a connection of its own, and no compression is asked for
 * (the answer's bytes are as the server sent them).
 */
export async function guardedFetch(
  input: string | URL,
  init: RequestInit & { duplex?: 'half' },
  allowPrivate: boolean,
): Promise<Response> {
  const url = new URL(input);
  try {
    await checkTarget(url.href, allowPrivate);
  } catch (error) {
    if (error instanceof TargetUnresolved) throw new Unresolved(error.message);
    throw error;
  }
  // fetch's own reading of the body and headers (a form's content type, a string's length).
  const request = new Request(url, init);
  const streamed = init.body instanceof ReadableStream;
  const bytes = request.body && !streamed ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'Chorus' };
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (bytes) headers['content-length'] = String(bytes.length);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    const req = send(url, {
      method: request.method,
      headers,
      lookup: guardedLookup(allowPrivate),
      agent: false,
      signal: request.signal,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      try {
        resolve(responseOf(res, request.method));
      } catch (error) {
        res.destroy();
        reject(error);
      }
    });
    if (streamed && request.body) {
      const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
      pipeline(source, req).catch((error: unknown) => {
        req.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    } else {
      req.end(bytes);
    }
  });
}
