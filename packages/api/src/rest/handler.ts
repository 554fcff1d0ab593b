import type { Database } from '@chorus/db';
import { AppError } from '@chorus/services';
import type { StorageDriver } from '@chorus/storage';
import { defaultRateLimiter, type RateLimiter } from '../rate-limit';
import { checkHealth, queueChecks } from '../server/health';
import { toResponse, type Answer } from '../server/node-fetch';
import {
  createPipeline,
  otherMethodRoute,
  refusingRoute,
  type Admitted,
  type PipelineRoute,
} from '../server/pipeline';
import type { SessionLookup } from '../server/principal';
import { controlRefusal } from '../server/refuse-control';
import { maxUploadBytesFromEnv } from '../media/config';
import { defaultStorage } from '../server/storage';
import { openApiDocument } from '../openapi/document';
import { withEtag, withLocation } from './representation';
import { echoedPath, routeNotFound } from '../server/errors';
import { errorResponse, json } from '../server/respond';
import { parseJsonBody } from './body';
import { callProcedure } from './call';
import type { Route } from './routes';
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

/** The REST door as a fetch-standard handler (tests, fetch runtimes): see createRestDoor. */
export function createRestHandler(options: RestHandlerOptions) {
  const door = createRestDoor(options);
  return async (req: Request): Promise<Response> => toResponse(await door(req));
}

/**
 * The REST door for everything under /api/, answering JSON as text for the Node listener to
 * write: the pipeline (server/pipeline.ts) with REST's protocol — routes from the one table
 * (rest/table.ts), authentication before 404/405 (no routing answers to strangers; OPTIONS on a
 * known path needs none, see otherMethodRoute), bodies as
 * JSON or forms, success statuses, ETag and Location, and the spec's error envelope.
 */
export function createRestDoor(options: RestHandlerOptions) {
  const { getDatabase, storage, sessionPrincipal } = options;
  const rateLimiter = options.rateLimiter ?? defaultRateLimiter();
  let maxUploadBytes = options.maxUploadBytes;

  /** Paths that answer without credentials (docs/api.md), GET and HEAD only. */
  const publicPaths: Record<string, (admitted: Admitted) => Promise<Answer>> = {
    // Never refused: a refused probe would take a healthy instance out of service. A database
    // that cannot even be opened is reported down, like one that does not answer.
    '/api/health': async ({ headers }) => {
      const report = await checkHealth(() => getDatabase().then((database) => database.ping()), {
        ...(rateLimiter.probe && { redis: rateLimiter.probe }),
        ...queueChecks(() => getDatabase().then((database) => database.db)),
      });
      return json(report.status === 'down' ? 503 : 200, report, headers);
    },
    '/api/openapi.json': async ({ url, headers }) =>
      json(200, openApiDocument(url.origin), headers),
  };

  function route(req: Request, _url: URL, path: string): PipelineRoute {
    const publicPath = publicPaths[path];
    if (publicPath) return publicRoute(req, path, publicPath);
    const match = routes.match(req.method, path);
    // Unknown paths and methods are answered once the caller is known (401 comes first).
    if (!match) return refusingRoute('required', routeNotFound(path));
    if ('allow' in match) {
      const refused = new AppError(
        'method_not_allowed',
        `${req.method} is not allowed on ${echoedPath(path)}.`,
      );
      return otherMethodRoute(req, 'required', refused, match.allow);
    }
    const isPublic = match.route.meta.openapi?.protect === false;
    const guard = {
      caller: isPublic ? ('none' as const) : ('required' as const),
      // Declared public (`openapi.protect: false`): the route authorises the request itself.
      access: isPublic ? [] : [match.route.meta.access ?? {}],
      acceptsSession: match.route.handler?.acceptsSession,
    };
    const { handler } = match.route;
    if (handler) {
      return {
        ...guard,
        body: 'own',
        serve: async (admitted) =>
          handler.handle(admitted.req, new Map(Object.entries(match.params)), {
            ...admitted,
            db: (await getDatabase()).db,
            origin: admitted.url.origin,
            storage: storage ?? defaultStorage(),
            maxUploadBytes: (maxUploadBytes ??= maxUploadBytesFromEnv()),
          }),
      };
    }
    const takesBody = match.route.method !== 'GET' && match.route.method !== 'DELETE';
    return {
      ...guard,
      body: takesBody ? undefined : 'none',
      serve: (admitted) => procedure(match.route, match.params, admitted),
    };
  }

  function publicRoute(
    req: Request,
    path: string,
    serve: (admitted: Admitted) => Promise<Answer>,
  ): PipelineRoute {
    const read = req.method === 'GET' || req.method === 'HEAD';
    const refused = new AppError('method_not_allowed', `${req.method} is not allowed here.`);
    if (!read) return otherMethodRoute(req, 'none', refused, ['GET', 'HEAD']);
    const uncounted = path === '/api/health' ? { uncounted: true as const } : {};
    return { caller: 'none', access: [], body: 'none', ...uncounted, serve };
  }

  /** A procedure's route: its input from the body, query and path, run once per Idempotency-Key. */
  async function procedure(route: Route, params: Record<string, string>, admitted: Admitted) {
    const { req, url, path, body, headers } = admitted;
    route.meta.beforeBody?.(params);
    const input =
      body === undefined
        ? undefined
        : parseJsonBody(body, req.headers.get('content-type'), route.input);
    const context = {
      db: (await getDatabase()).db,
      principal: admitted.principal,
      requestId: admitted.requestId,
      origin: url.origin,
      response: {},
      storage,
    };
    const query = url.searchParams;
    const run = () => callProcedure({ route, path, params, query, input, context, headers });
    if (route.method !== 'POST' || !input) return run();
    // Before a key is claimed or replayed: a stored answer never goes to a request the
    // procedure would refuse.
    const refused = controlRefusal({ ...input, ...params });
    if (refused) throw refused;
    return admitted.idempotent(input, run);
  }

  return createPipeline(
    {
      route,
      refusal: (failure, headers) => errorResponse(failure, headers),
      finish(req, path, answer) {
        const response = withEtag(req, withLocation(routes, path, answer));
        if (req.method !== 'HEAD') return response;
        return new Response(null, { status: response.status, headers: response.headers });
      },
    },
    { getDatabase, rateLimiter, sessionPrincipal },
  );
}
