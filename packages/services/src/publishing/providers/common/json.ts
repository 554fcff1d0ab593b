import { networkFetch, readAnswer } from '../../http';
import type { ProviderContext } from '../../provider';

/** The request (and the fetch options the DOM types lack) a network call is made with. */
export type NetworkInit = Omit<RequestInit, 'headers'> & {
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Required by fetch for a streamed body. */
  duplex?: 'half';
  /** A connection's own server: `ProviderContext.guarded`. */
  guarded?: boolean;
};

/** A network call through `networkFetch`, answering its status and JSON body (null when empty). */
export async function requestJson(url: string, init: NetworkInit = {}) {
  const { json, headers, ...rest } = init;
  const res = await networkFetch(url, {
    ...rest,
    headers: json === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  return { status: res.status, headers: res.headers, data: await readAnswer(res, url) };
}

/**
 * Calls to one network API as one user: a base URL, a bearer token, and the attempt's signal
 * and guard from its context.
 */
export function bearerCall(
  baseUrl: string,
  accessToken: string,
  context: Pick<ProviderContext, 'signal' | 'guarded'>,
) {
  const base = baseUrl.replace(/\/+$/, '');
  return async (path: string, init: NetworkInit = {}) =>
    (
      await requestJson(`${base}${path}`, {
        signal: context.signal,
        guarded: context.guarded,
        ...init,
        headers: { authorization: `Bearer ${accessToken}`, ...init.headers },
      })
    ).data;
}

/** `items` in consecutive slices of at most `size` (networks cap ids per lookup). */
export function* batches<T>(items: T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
