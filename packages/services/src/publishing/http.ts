import {
  ANSWER_LIMIT,
  AnswerTooLarge,
  inWords,
  readAnswerStart,
  readAnswerText,
} from '../shared/answer-body';
import { TargetRefused } from '../webhooks/targets';
import type { ClassifiedError } from './provider';
import { serviceFetch } from './service-url';

/**
 * Calls to a network, with failures described the way the engine needs to classify them: did
 * the network answer (and what), or did the request never leave, or may it have been acted on?
 * Every provider calls its network through `networkFetch`, so that this distinction, which
 * decides between a retry and `unconfirmed`, is made in one place.
 */

const DEFAULT_TIMEOUT_MS = 30_000;

/** Node's codes for a connection that failed before any byte of the request was sent. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    message: string,
    readonly details: {
      /** The network's HTTP status; absent when it never answered. */
      status?: number;
      headers?: Headers;
      /** The start of the answer's body (shared/answer-body.ts), JSON-parsed when it was JSON. */
      body?: unknown;
      /** False only when the request certainly never reached the network. */
      sent: boolean;
      /** The address was refused (a connection's own server, `guarded`): nothing was sent. */
      refused?: boolean;
      /**
       * What happened on the wire (the host and port, the socket's error code): the worker's
       * log's, never the message, which accounts read (docs/publishing.md, States).
       */
      wire?: string;
      /** The cap the network's answer went past (shared/answer-body.ts): it was reached. */
      overLimit?: number;
    },
  ) {
    super(message);
  }
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

async function readErrorBody(res: Response): Promise<unknown> {
  const text = await readAnswerStart(res);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** In plain words, as a target's error shows it: the reason and the host are the log's. */
export const REFUSED_MESSAGE =
  "Chorus refused to call this channel's server (its serviceUrl): it must be https on a public address, port 443 or 8443, unless the deployment allows private targets (CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS).";

/**
 * `fetch` that throws a `NetworkError` for anything but a 2xx (redirects are not followed) and
 * for a request that failed on the way, with `sent` telling whether it may have been acted on.
 * `guarded`: the URL is a connection's own server, a user's choice, called under the webhooks'
 * rule (`serviceFetch`); a refusal is a `NetworkError` with `refused`.
 */
export async function networkFetch(
  url: string | URL,
  init: RequestInit & { timeoutMs?: number; guarded?: boolean; duplex?: 'half' } = {},
): Promise<Response> {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, signal, guarded, ...rest } = init;
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await (guarded ? serviceFetch : fetch)(url, {
      ...rest,
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (error instanceof TargetRefused) {
      throw new NetworkError(REFUSED_MESSAGE, {
        sent: false,
        refused: true,
        wire: `${new URL(url).host}: refused: ${error.message}`,
      });
    }
    const code = causeCode(error);
    const sent = !(code && NOT_SENT.has(code));
    const wire = `${new URL(url).host}: ${timeout.aborted ? `no answer within ${timeoutMs} ms` : (code ?? 'the request failed')}`;
    // In plain words, as a target's error.message shows them: the address and the code are in
    // `wire`, for the worker's log (engine/attempt.ts).
    const message = timeout.aborted
      ? `The network did not answer within ${Math.round(timeoutMs / 1000)} seconds.`
      : sent
        ? 'The connection to the network was lost before it answered.'
        : 'The network could not be reached.';
    throw new NetworkError(message, { sent, wire });
  }
  if (res.status >= 200 && res.status < 300) return res;
  throw new NetworkError(`The network answered with an error (HTTP ${res.status}).`, {
    status: res.status,
    headers: res.headers,
    body: await readErrorBody(res),
    sent: true,
    wire: `${new URL(url).host} answered ${res.status}`,
  });
}

/**
 * A successful answer's JSON body (null when empty), read under the cap of every answer
 * (shared/answer-body.ts). Larger is a `NetworkError` without a status: the request was sent and
 * may have been acted on, and what the network answered is unknown (an unknown outcome, as for
 * a connection lost before the answer), never the network's refusal.
 */
export async function readAnswer(res: Response, url: string | URL): Promise<unknown> {
  let text: string;
  try {
    text = await readAnswerText(res, ANSWER_LIMIT);
  } catch (error) {
    if (!(error instanceof AnswerTooLarge)) throw error;
    throw new NetworkError(
      `The network answered more than Chorus reads (over ${inWords(error.limit)}).`,
      {
        sent: true,
        overLimit: error.limit,
        wire: `${new URL(url).host} answered ${res.status} with more than ${inWords(error.limit)}: not read`,
      },
    );
  }
  return text === '' ? null : (JSON.parse(text) as unknown);
}

/**
 * What a failed attempt's error says for the worker's log: each error of its `cause` chain, a
 * `NetworkError` by its wire facts (host, port, socket code), which its message leaves out.
 */
export function failureDetail(error: unknown): string {
  const said: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    said.push(
      current instanceof NetworkError ? (current.details.wire ?? current.message) : current.message,
    );
    current = current.cause;
  }
  return said.length > 0 ? said.join(' <- ') : String(error);
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds; undefined when absent or bad. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The classes every network shares, from what `networkFetch` threw: providers call this for
 * what they do not recognise themselves (a network's own error codes come first).
 */
export function classifyHttp(error: unknown): ClassifiedError {
  if (!(error instanceof NetworkError)) {
    return { class: 'unknown_outcome', message: 'The request failed unexpectedly.' };
  }
  const { status, headers, sent, refused } = error.details;
  if (refused) return { class: 'address_refused', message: error.message };
  if (status === undefined) {
    return sent
      ? { class: 'unknown_outcome', message: error.message }
      : { class: 'transient', message: error.message };
  }
  if (status === 429) {
    return { class: 'rate_limited', message: error.message, retryAfterMs: retryAfterMs(headers) };
  }
  if (status === 401) return { class: 'token_expired', message: error.message };
  if (status >= 500) return { class: 'transient', message: error.message };
  return { class: 'rejected', message: error.message };
}
