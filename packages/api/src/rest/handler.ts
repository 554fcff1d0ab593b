import type { Principal } from '@chorus/auth';
import { isUnavailable, type Database } from '@chorus/db';
import { AppError } from '@chorus/services';
import type { StorageDriver } from '@chorus/storage';
import type { Context } from '../trpc/context';
import { apiError, toApiError } from '../server/errors';
import { checkHealth } from '../server/health';
import { toResponse, type Answer } from '../server/node-fetch';
import { describeError, log } from '../server/logger';
import {
  callerBucket,
  defaultRateLimiter,
  enforceRateLimit,
  reportRateLimit,
  type RateLimiter,
} from '../rate-limit';
import { requirePrincipal, type SessionLookup } from '../server/principal';
import { logRequest } from '../server/request-log';
import { readJsonBody } from './body';
import { callProcedure } from './call';
import { accessBreach, requireScopes } from '../server/access';
import { controlRefusal } from '../server/refuse-control';
import { maxUploadBytesFromEnv } from '../media/config';
import { defaultStorage } from '../server/storage';
import { withIdempotency } from './idempotency';
import { openApiDocument } from '../openapi/document';
import { withEtag, withLocation } from './representation';
import { errorResponse, json, responseHeaders } from '../server/respond';
import { requestIdFor } from '../server/request-id';
import { restRoutes } from './table';

export interface RestHandlerOptions {
  getDatabase: () => Promise<Database>;
  /** Counts requests (docs/rate-limits-and-idempotency.md); by default the process's, configured from the environment. */
  rateLimiter?: RateLimiter;
  /** Media bytes; by default the store configured by the environment (CHORUS_STORAGE…). */
  storage?: StorageDriver;
  /** The largest upload in bytes; by default CHORUS_MEDIA_MAX_BYTES, else 25 MiB. */
  maxUploadBytes?: number;
  /**
   * The dashboard session's principal, for the routes that accept it (media bytes, so that
   * `<img src>` works signed in): null when the request carries no session or is cross-site.
   */
  sessionPrincipal?: SessionLookup;
}

const routes = restRoutes;

/** `/api/users/` and `/api/users` are one path. */
const normalizePath = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

/** Paths that answer without credentials (docs/api.md). */
const PUBLIC_PATHS = new Set(['/api/health', '/api/openapi.json']);

/** The REST door as a fetch-standard handler (tests, fetch runtimes): see createRestDoor. */
export function createRestHandler(options: RestHandlerOptions) {
  const door = createRestDoor(options);
  return async (req: Request): Promise<Response> => toResponse(await door(req));
}

/**
 * The REST door for everything under /api/, answering JSON as text for the Node listener to
 * write. It owns what trpc-to-openapi does not do for a public API: authentication before
 * routing, rate limits, 404/405, body parsing (JSON and forms, 1 MiB), idempotent POSTs,
 * success statuses and the error envelope.
 */
export function createRestDoor({
  getDatabase,
  rateLimiter = defaultRateLimiter(),
  storage,
  maxUploadBytes,
  sessionPrincipal,
}: RestHandlerOptions) {
  /** Unauthenticated requests are counted per client address. */
  const anonymous = (req: Request) => callerBucket(req, null, rateLimiter.limits);

  return async function handleRest(req: Request): Promise<Answer> {
    const started = performance.now();
    const requestId = requestIdFor(req);
    const headers = responseHeaders(requestId);
    const url = new URL(req.url);
    const path = normalizePath(url.pathname);
    let response: Answer;
    try {
      response = await dispatch(req, url, path, headers, requestId);
    } catch (error) {
      const failure = toApiError(error);
      if (failure.status >= 500) {
        log('error', 'request failed', { requestId, path, error: describeError(error) });
      }
      if (failure.code === 'service_unavailable') headers.set('Retry-After', '5');
      response = errorResponse(failure, headers);
    }
    response = withEtag(req, withLocation(routes, path, response));
    // Failures before the request could be counted (e.g. no database) still say the budget.
    if (!response.headers.has('X-RateLimit-Limit')) {
      await reportRateLimit(rateLimiter, anonymous(req), response.headers);
    }
    logRequest(req, path, requestId, response.status, started);
    if (req.method !== 'HEAD') return response;
    return new Response(null, { status: response.status, headers: response.headers });
  };

  async function dispatch(
    req: Request,
    url: URL,
    path: string,
    headers: Headers,
    requestId: string,
  ): Promise<Answer> {
    if (PUBLIC_PATHS.has(path)) {
      const read = req.method === 'GET' || req.method === 'HEAD';
      if (path === '/api/health' && read) {
        // Never refused: a refused probe would take a healthy instance out of service.
        await reportRateLimit(rateLimiter, anonymous(req), headers);
        // A database that cannot even be opened is reported down, like one that does not answer.
        const report = await checkHealth(
          () => getDatabase().then((database) => database.ping()),
          rateLimiter.probe ? { redis: rateLimiter.probe } : {},
        );
        return json(report.status === 'down' ? 503 : 200, report, headers);
      }
      await enforceRateLimit(rateLimiter, anonymous(req), headers);
      if (path === '/api/openapi.json' && read) {
        return json(200, openApiDocument(url.origin), headers);
      }
      headers.set('Allow', 'GET, HEAD');
      return errorResponse(
        apiError('method_not_allowed', `${req.method} is not allowed here.`),
        headers,
      );
    }

    const database = await getDatabase();
    const match = routes.match(req.method, path);
    // Authentication comes before routing answers (no 404/405 to strangers), except for routes
    // declared public (`openapi.protect: false`), which authorise the request themselves.
    const isPublic =
      match !== null && 'route' in match && match.route.meta.openapi?.protect === false;
    let principal: Principal | null = null;
    if (isPublic) {
      await enforceRateLimit(rateLimiter, anonymous(req), headers);
    } else {
      // Only a route that says so accepts the dashboard session; a bearer token always wins.
      const session =
        match && 'route' in match && match.route.handler?.acceptsSession && sessionPrincipal
          ? () => sessionPrincipal(req)
          : undefined;
      principal = await requirePrincipal(req, database.db, session).catch(
        async (error: unknown) => {
          // Refused credentials are counted per client address, like missing ones; credentials
          // that could not be checked (no database) were not refused, and spend nothing.
          if (!isUnavailable(error)) await enforceRateLimit(rateLimiter, anonymous(req), headers);
          throw error;
        },
      );
      await enforceRateLimit(
        rateLimiter,
        callerBucket(req, principal, rateLimiter.limits),
        headers,
      );
    }
    if (!match) throw new AppError('route_not_found', `No route for ${path}.`);
    if ('allow' in match) {
      headers.set('Allow', match.allow.join(', '));
      if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers });
      throw new AppError('method_not_allowed', `${req.method} is not allowed on ${path}.`);
    }

    const { route } = match;
    if (route.handler) {
      if (principal) requireScopes(principal, route.meta.access?.scopes ?? []);
      return route.handler.handle(req, new Map(Object.entries(match.params)), {
        db: database.db,
        principal,
        requestId,
        origin: url.origin,
        storage: storage ?? defaultStorage(),
        maxUploadBytes: (maxUploadBytes ??= maxUploadBytesFromEnv()),
        headers,
      });
    }
    const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
    const input = hasBody ? await readJsonBody(req, route.input) : undefined;
    const context: Context = {
      db: database.db,
      principal,
      requestId,
      origin: url.origin,
      response: {},
      storage,
    };
    const { params } = match;
    const query = url.searchParams;
    const run = () => callProcedure({ route, path, params, query, input, context, headers });
    if (route.method !== 'POST' || !principal) return run();
    // Before a key is claimed or replayed, in the procedure’s own order (control characters, then access): a
    // stored answer goes only to a caller allowed to make the request.
    const refused =
      controlRefusal({ ...input, ...match.params }) ??
      accessBreach(principal, route.meta.access ?? {});
    if (refused) throw refused;
    return withIdempotency(
      {
        db: database.db,
        principal,
        key: req.headers.get('idempotency-key'),
        method: route.method,
        target: `${path}${url.search}`,
        body: input,
        headers,
      },
      run,
    );
  }
}
