import { authenticateBearer, bearerToken, type Principal } from '@chorus/auth';
import type { Database } from '@chorus/db';
import { AppError } from '@chorus/services';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { readCapped } from './body-limit';
import { toApiError, toTrpcError } from './errors';
import {
  anonymousBucket,
  clientIp,
  defaultRateLimiter,
  enforceRateLimit,
  principalBucket,
  type RateLimiter,
} from './rate-limit';
import { responseHeaders, requestIdFor } from './rest/respond';
import { appRouter } from './root';

export interface TrpcHandlerOptions {
  getDatabase: () => Promise<Database>;
  /**
   * The caller when no bearer token is sent: the web app's dashboard session (null when none,
   * or when the request does not come from the dashboard's own pages).
   */
  sessionPrincipal?: (req: Request) => Promise<Principal | null>;
  /** Counts requests (decisions §8); by default the process's, shared with the REST door. */
  rateLimiter?: RateLimiter;
}

/** tRPC bodies (batches included) are small; the same cap as REST bodies (decisions §6). */
const MAX_BODY = 1024 * 1024;

/** The request with its body read under the cap (the fetch adapter would read it whole). */
async function capped(req: Request): Promise<Request> {
  if (req.method === 'GET' || req.method === 'HEAD') return req;
  const body = await readCapped(req, MAX_BODY);
  return new Request(req.url, { method: req.method, headers: req.headers, body });
}

/**
 * The typed door for the dashboard and internal apps (`@chorus/client`): the same procedures
 * as REST, with the same request ids and the same rate limits per credential, so no door
 * bypasses the budget. One HTTP request counts once (a batch too): GET reads, POST writes.
 */
export function createTrpcHandler({
  getDatabase,
  sessionPrincipal = async () => null,
  rateLimiter = defaultRateLimiter(),
}: TrpcHandlerOptions) {
  async function principalFor(req: Request, database: Database) {
    const token = bearerToken(req.headers.get('authorization'));
    return token ? authenticateBearer(database.db, token) : sessionPrincipal(req);
  }

  return async function handleTrpc(incoming: Request): Promise<Response> {
    const requestId = requestIdFor(incoming);
    const headers = responseHeaders(requestId);
    let req: Request;
    try {
      req = await capped(incoming);
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
        const principal = await principalFor(req, database);
        const bucket = principal
          ? principalBucket(principal, req.method, rateLimiter.limits)
          : anonymousBucket(clientIp(req), rateLimiter.limits);
        await enforceRateLimit(rateLimiter, bucket, headers).catch((error: unknown) => {
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
  };
}
