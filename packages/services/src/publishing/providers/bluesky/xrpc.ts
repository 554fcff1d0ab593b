import { NetworkError } from '../../http';
import type { ProviderContext } from '../../provider';
import { requestJson, type NetworkInit } from '../common/json';

/**
 * XRPC over HTTP (https://atproto.com/specs/xrpc): queries are GETs with parameters in the
 * query string, procedures are POSTs; errors answer `{ error, message }`. Every call goes
 * through `networkFetch`, so a failure says whether the request may have been acted on.
 */

interface Call {
  /** A bearer token: the session's access JWT (or its refresh JWT for refreshSession). */
  token?: string;
}

const endpoint = (context: ProviderContext, nsid: string) =>
  `${context.apiUrl.replace(/\/+$/, '')}/xrpc/${nsid}`;

async function xrpc<T>(context: ProviderContext, url: string, call: Call, init: NetworkInit = {}) {
  const { data } = await requestJson(url, {
    signal: context.signal,
    guarded: context.guarded,
    ...init,
    headers: {
      accept: 'application/json',
      ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
      ...init.headers,
    },
  });
  return data as T;
}

export function query<T>(
  context: ProviderContext,
  nsid: string,
  params: Record<string, string | string[]>,
  call: Call = {},
): Promise<T> {
  const url = new URL(endpoint(context, nsid));
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, one);
  }
  return xrpc<T>(context, url.toString(), call);
}

export function procedure<T>(
  context: ProviderContext,
  nsid: string,
  body: unknown,
  call: Call = {},
): Promise<T> {
  return xrpc<T>(context, endpoint(context, nsid), call, {
    method: 'POST',
    ...(body === undefined ? {} : { json: body }),
  });
}

/** A procedure whose input is raw bytes, streamed (uploadBlob). */
export function upload<T>(
  context: ProviderContext,
  nsid: string,
  bytes: { stream: ReadableStream<Uint8Array>; mimeType: string; size: number },
  call: Call,
): Promise<T> {
  return xrpc<T>(context, endpoint(context, nsid), call, {
    method: 'POST',
    body: bytes.stream,
    duplex: 'half',
    headers: { 'content-type': bytes.mimeType, 'content-length': String(bytes.size) },
    // A 300 MB video on a slow link takes minutes; the default 30 s is for ordinary calls.
    timeoutMs: 10 * 60_000,
  });
}

/** The XRPC error name and message of a failed call, when the server gave them. */
export function xrpcError(error: unknown): { name: string; message: string } | undefined {
  if (!(error instanceof NetworkError)) return undefined;
  const body = error.details.body;
  if (!body || typeof body !== 'object') return undefined;
  const { error: name, message } = body as { error?: unknown; message?: unknown };
  if (typeof name !== 'string') return undefined;
  return { name, message: typeof message === 'string' && message ? message : name };
}
