import type { Database } from '@chorus/db';
import { AppError } from '@chorus/services';
import { readSetting } from '@chorus/settings';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { RateLimiter } from '../rate-limit';
import { accessRuleOf } from '../trpc/access-rules';
import { appRouter } from '../trpc/root';
import { decodable } from './decodable';
import { routeNotFound, trpcCodeFor, type ApiError } from './errors';
import { refuseDeepJson } from './json-depth';
import { refuseReservedKeys } from './reserved-keys';
import { toResponse } from './node-fetch';
import { createPipeline, type Admitted, type PipelineRoute } from './pipeline';
import type { SessionLookup } from './principal';

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

/** A tRPC request as the pipeline's route: the procedures it calls, one per call of a batch. */
interface TrpcRoute extends PipelineRoute {
  calls: string[];
  batch: boolean;
}

/**
 * The procedures the request calls: `/api/trpc/a,b,c?batch=1` is three, each counted against
 * the budget as a request of its own; more than `max` is refused before any runs (400).
 */
function callsIn(url: URL, max: number): string[] {
  const paths = url.pathname.replace(/^\/api\/trpc\/?/, '');
  // A procedure's name that does not decode names none (tRPC would answer a bare 400).
  if (!decodable(paths)) throw routeNotFound(url.pathname);
  if (url.searchParams.get('batch') !== '1') return [paths];
  const calls = paths.split(',');
  if (calls.length <= max) return calls;
  const message = `A batch may hold at most ${max} calls; this one holds ${calls.length}.`;
  throw new AppError('validation_error', message, {
    issues: [{ path: 'batch', message }],
    maxBatchSize: max,
  });
}

/** One call's error as tRPC's error formatter shapes it (trpc/init.ts), for refusals made before tRPC runs. */
const callError = (failure: ApiError, path: string | undefined, code: number) => ({
  error: {
    message: failure.message,
    code,
    data: { httpStatus: failure.status, ...(path !== undefined && { path }), error: failure },
  },
});

/**
 * A refusal in tRPC's shape: one error per call once the calls are known (a batch answers a
 * list), else one for the request (JSON-RPC's invalid request).
 */
function trpcRefusal(failure: ApiError, headers: Headers, route: TrpcRoute | undefined) {
  const code = TRPC_ERROR_CODES_BY_KEY[trpcCodeFor(failure.status)];
  const body = !route
    ? callError(failure, undefined, TRPC_ERROR_CODES_BY_KEY.BAD_REQUEST)
    : route.batch
      ? route.calls.map((path) => callError(failure, path, code))
      : callError(failure, route.calls[0], code);
  return Response.json(body, { status: failure.status, headers });
}

/**
 * The typed door for the dashboard and internal apps (`@chorus/client`): the pipeline
 * (server/pipeline.ts) with tRPC's protocol. The same procedures as REST, with the same request
 * ids, rate limits per credential and access rules, so no door bypasses them: a batch of N
 * costs N requests (GET reads, POST writes), holds at most `maxBatchSize` calls, and runs only
 * if the caller may make every one of them.
 */
export function createTrpcHandler({
  getDatabase,
  sessionPrincipal = async () => null,
  rateLimiter,
  maxBatchSize = maxBatchFromEnv(),
}: TrpcHandlerOptions) {
  function route(_req: Request, url: URL): TrpcRoute {
    const calls = callsIn(url, maxBatchSize);
    return {
      calls,
      batch: url.searchParams.get('batch') === '1',
      // Public procedures (and unknown paths, which tRPC answers 404) need no caller.
      caller: 'optional',
      acceptsSession: true,
      access: calls.flatMap((path) => accessRuleOf(path) ?? []),
      cost: calls.length,
      serve,
    };
  }

  const pipeline = createPipeline<TrpcRoute>(
    { route, refusal: trpcRefusal },
    { getDatabase, rateLimiter, sessionPrincipal },
  );
  return async (req: Request): Promise<Response> => toResponse(await pipeline(req));

  async function serve({
    req,
    url,
    body,
    principal,
    requestId,
    headers,
    getDatabase: open,
  }: Admitted) {
    // JSON too deep for the readers that recurse, or naming a reserved key: the body, or a
    // query's `input`, refused as the REST door refuses them.
    const json = body ?? url.searchParams.get('input') ?? '';
    refuseDeepJson(json);
    refuseReservedKeys(json);
    const { db } = await open();
    return fetchRequestHandler({
      endpoint: '/api/trpc',
      // The body as the pipeline read it, under its cap (the adapter would read it whole).
      req:
        body === undefined
          ? req
          : new Request(req.url, { method: req.method, headers: req.headers, body }),
      router: appRouter,
      createContext: async () => ({ db, principal, requestId, origin: url.origin, response: {} }),
      responseMeta: () => ({ headers }),
    });
  }
}
