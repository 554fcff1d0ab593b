import { authenticateBearer, bearerToken, type Principal } from '@chorus/auth';
import type { Database } from '@chorus/db';
import { AppError } from '@chorus/services';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { toTrpcError } from './errors';
import {
  anonymousBucket,
  clientIp,
  defaultRateLimiter,
  enforceRateLimit,
  principalBucket,
  type RateLimiter,
} from './rate-limit';
import { requestIdFor } from './rest/respond';
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

  return async function handleTrpc(req: Request): Promise<Response> {
    const requestId = requestIdFor(req);
    const headers = new Headers({ 'X-Request-Id': requestId, 'API-Version': '1' });
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
