import type { Database } from '@chorus/db';
import { AppError } from '@chorus/services';
import { readSetting } from '@chorus/settings';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { MAX_BODY_BYTES, readCapped } from './body-limit';
import { toApiError, toTrpcError } from './errors';
import { refuseDeepJson } from './json-depth';
import {
  callerBucket,
  defaultRateLimiter,
  enforceRateLimit,
  type RateLimiter,
} from '../rate-limit';
import { principalFor, type SessionLookup } from './principal';
import { logRequest } from './request-log';
import { responseHeaders } from './respond';
import { requestIdFor } from './request-id';
import { appRouter } from '../trpc/root';

export interface TrpcHandlerOptions {
  getDatabase: () => Promise<Database>;
  /**
   * The caller when no bearer token is sent: the web app's dashboard session (null when none,
   * or when the request does not come from the dashboard's own pages).
   */
  sessionPrincipal?: SessionLookup;
  /** Counts requests (docs/rate-limits-and-idempotency.md); by default the process's, shared with the REST door. */
  rateLimiter?: RateLimiter;
  /** The most calls one batch may hold; by default CHORUS_TRPC_MAX_BATCH, else 20. */
  maxBatchSize?: number;
}

/** CHORUS_TRPC_MAX_BATCH: the most calls a tRPC batch may hold (default 20). */
export const maxBatchFromEnv = (env: Record<string, string | undefined> = process.env): number =>
  readSetting('CHORUS_TRPC_MAX_BATCH', env);

/**
 * How many calls the request holds: `/api/trpc/a,b,c?batch=1` is three, each counted against
 * the budget as a request of its own; more than `max` is refused before any runs (400).
 */
function callsIn(url: URL, max: number): number {
  if (url.searchParams.get('batch') !== '1') return 1;
  const paths = url.pathname.replace(/^\/api\/trpc\/?/, '').split(',');
  if (paths.length <= max) return paths.length;
  const message = `A batch may hold at most ${max} calls; this one holds ${paths.length}.`;
  throw new AppError('validation_error', message, {
    issues: [{ path: 'batch', message }],
    maxBatchSize: max,
  });
}

/**
 * The request with its body read under the cap (the fetch adapter would read it whole), and
 * its JSON (body, or `input` of a query) refused when too deep for the readers that recurse.
 */
async function capped(req: Request, url: URL): Promise<Request> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    refuseDeepJson(url.searchParams.get('input') ?? '');
    return req;
  }
  const body = await readCapped(req, MAX_BODY_BYTES);
  refuseDeepJson(body);
  return new Request(req.url, { method: req.method, headers: req.headers, body });
}

/**
 * The typed door for the dashboard and internal apps (`@chorus/client`): the same procedures
 * as REST, with the same request ids and the same rate limits per credential, so no door
 * bypasses the budget. Every call counts, a batch of N as N requests (GET reads, POST
 * writes), and a batch holds at most `maxBatchSize` calls.
 */
export function createTrpcHandler({
  getDatabase,
  sessionPrincipal = async () => null,
  rateLimiter = defaultRateLimiter(),
  maxBatchSize = maxBatchFromEnv(),
}: TrpcHandlerOptions) {
  return async function handleTrpc(incoming: Request): Promise<Response> {
    const started = performance.now();
    const requestId = requestIdFor(incoming);
    const response = await answer(incoming, requestId);
    logRequest(incoming, new URL(incoming.url).pathname, requestId, response.status, started);
    return response;
  };

  async function answer(incoming: Request, requestId: string): Promise<Response> {
    const headers = responseHeaders(requestId);
    let req: Request;
    let calls: number;
    try {
      const url = new URL(incoming.url);
      calls = callsIn(url, maxBatchSize);
      req = await capped(incoming, url);
    } catch (error) {
      const failure = toApiError(error);
      return Response.json(
        { error: { message: failure.message, code: -32600, data: { error: failure } } },
        { status: failure.status, headers },
      );
    }
    return fetchRequestHandler({
      endpoint: '/api/trpc',
      req,
      router: appRouter,
      createContext: async () => {
        const database = await getDatabase();
        const principal = await principalFor(req, database.db, () => sessionPrincipal(req));
        const bucket = callerBucket(req, principal, rateLimiter.limits);
        await enforceRateLimit(rateLimiter, bucket, headers, calls).catch((error: unknown) => {
          throw error instanceof AppError ? toTrpcError(error) : error;
        });
        return {
          db: database.db,
          principal,
          requestId,
          origin: new URL(req.url).origin,
          response: {},
        };
      },
      responseMeta: () => ({ headers }),
    });
  }
}
