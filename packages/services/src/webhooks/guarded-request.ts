import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkTarget, guardedLookup } from './targets';

/** `work`, or the signal's reason as soon as it aborts (a DNS look-up cannot be cancelled). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/**
 * The one sender to an address a user chose, under the webhooks' rule (docs/webhooks.md,
 * Safety): a webhook attempt (send.ts) and every call to a connection's own server
 * (guarded-fetch.ts) go through it. The URL is checked now (https, its port, the addresses
 * DNS gives), and the connection itself resolves the host and refuses a private address, so
 * DNS that changes after the check gains nothing. A refusal rejects with `TargetRefused`
 * (`TargetUnresolved` for a host that does not resolve) before any byte is sent. Redirects
 * are never followed (a 3xx is answered as it is) and each request has a connection of its
 * own. `signal` covers the whole request, the check's DNS included: once it aborts, this
 * rejects with its reason at once, however long DNS takes to answer, and nothing is sent.
 */
export async function guardedRequest(
  target: string | URL,
  opts: {
    method: string;
    headers: OutgoingHttpHeaders;
    body?: string | Buffer | Readable;
    allowPrivate: boolean;
    signal?: AbortSignal;
  },
): Promise<IncomingMessage> {
  const { signal } = opts;
  const url = new URL(target);
  await untilAborted(checkTarget(url.href, opts.allowPrivate), signal);
  signal?.throwIfAborted();
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = send(url, {
      method: opts.method,
      headers: opts.headers,
      lookup: guardedLookup(opts.allowPrivate),
      agent: false,
      signal,
    });
    // Aborted while connecting or sending: the signal's reason, as during the check.
    req.on('error', (error) => reject(signal?.aborted ? signal.reason : error));
    req.on('response', resolve);
    const { body } = opts;
    if (body instanceof Readable) {
      pipeline(body, req).catch((error: unknown) => {
        req.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    } else {
      req.end(body);
    }
  });
}
