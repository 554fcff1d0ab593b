import type { Principal } from '@chorus/auth';
import { isUnavailable, type Database } from '@chorus/db';
import type { AppError } from '@chorus/services';
import {
  callerBucket,
  defaultRateLimiter,
  enforceRateLimit,
  reportRateLimit,
  type Bucket,
  type RateLimiter,
  type RateLimits,
} from '../rate-limit';
import { withIdempotency } from '../rest/idempotency';
import { accessBreach, type AccessRule } from './access';
import { MAX_BODY_BYTES, readCapped, refuseEncodedBody } from './body-limit';
import { toApiError, type ApiError } from './errors';
import { describeError, log } from './logger';
import type { Answer } from './node-fetch';
import { principalFor, requirePrincipal, type SessionLookup } from './principal';
import { logRequest } from './request-log';
import { requestIdFor } from './request-id';
import { responseHeaders } from './respond';

/**
 * The one request pipeline (docs/architecture.md, "One request's path"): every route of every
 * door — REST procedures, REST handler routes, `/api/trpc`, the OAuth machine endpoints — goes
 * through these stages, each once, in this order:
 *
 * request id → security headers → body cap → principal (or the route's own caller: an OAuth
 * client) → rate limit → access → (the route, which wraps its effect in the idempotency stage)
 * → request log, with the error envelope around all of them. A door only translates its
 * protocol: it finds the route (`Door.route`) and says how its errors look (`Door.refusal`).
 */

/** What a route is handed once the pipeline has admitted the request. */
export interface Admitted {
  req: Request;
  url: URL;
  /** The path without trailing slashes: `/api/users/` is `/api/users`. */
  path: string;
  /** The body as text, read under the route's cap; undefined when the route takes none or reads its own. */
  body: string | undefined;
  principal: Principal | null;
  requestId: string;
  /** The answer's headers so far: request id, API version, security headers, rate limits. */
  headers: Headers;
  getDatabase: () => Promise<Database>;
  /**
   * The idempotency stage (POST with a caller): `run` once per Idempotency-Key, the first answer
   * replayed after. The route gives what identifies the request (its parsed input; an upload's
   * file digest, known only once streamed), so it is called by the route, not around it.
   */
  idempotent(fingerprint: object, run: () => Promise<Answer>): Promise<Answer>;
}

/** One route as the pipeline sees it: what each stage needs, and what serves it. */
export interface PipelineRoute {
  /**
   * The body: the most bytes read (1 MiB unless the route says less), `none` for a route that
   * takes no body, or `own` for one that streams and caps its body itself (an upload).
   */
  body?: number | 'none' | 'own';
  /** `required`: a caller (401 without); `optional`: looked for; `none`: no credential is read. */
  caller: 'required' | 'optional' | 'none';
  /** Also accepts the dashboard session (same-origin requests); a bearer token always wins. */
  acceptsSession?: boolean;
  /** The rules the caller must meet, one per call (a tRPC batch has one per call); none for public. */
  access: readonly AccessRule[];
  /**
   * The budget of a route whose callers are not users (`caller: 'none'`), once its body is read:
   * an OAuth client that proves itself counts on its own; null, its client address's.
   */
  bucket?(req: Request, body: string | undefined, limits: RateLimits): Promise<Bucket | null>;
  /** Requests this one counts as (a tRPC batch of N: N). */
  cost?: number;
  /** Health probes: the budget is reported, never spent nor refused. */
  uncounted?: true;
  serve(admitted: Admitted): Promise<Answer>;
}

/** A door: its protocol's translation, nothing more. */
export interface Door<R extends PipelineRoute = PipelineRoute> {
  /** The request's route, from the door's table; throws a refusal that needs no caller. */
  route(req: Request, url: URL, path: string): R;
  /** The door's error shape; `route` is undefined when the refusal came before one was found. */
  refusal(error: ApiError, headers: Headers, route: R | undefined): Answer;
  /** Protocol touches on the way out (REST: ETag, Location, HEAD without a body). */
  finish?(req: Request, path: string, answer: Answer): Answer;
}

export interface PipelineOptions {
  getDatabase: () => Promise<Database>;
  /** Counts requests (docs/rate-limits-and-idempotency.md); by default the process's, shared by every door. */
  rateLimiter?: RateLimiter;
  /** The dashboard session of a same-origin request, for the routes that accept it. */
  sessionPrincipal?: SessionLookup;
}

/**
 * A route that only refuses (an unknown path: 404), once the stages before it have run: where
 * a caller is required, strangers get 401, not a map of routes.
 */
export const refusingRoute = (caller: PipelineRoute['caller'], error: AppError): PipelineRoute => ({
  caller,
  access: [],
  body: 'none',
  serve: async () => {
    throw error;
  },
});

/**
 * A known path asked a method it does not have: 405 `error` with `Allow`, once the stages
 * before it have run (where a caller is required, strangers get 401 first). OPTIONS asks which
 * methods the path has: 204 with that `Allow`, on every door and public path alike, with no
 * credentials read (docs/api.md): a browser's OPTIONS carries none, and the answer tells
 * nothing of an account (the OpenAPI document, public, lists the same). `Allow` names
 * OPTIONS too, which every known path answers.
 */
export function otherMethodRoute(
  req: Request,
  caller: PipelineRoute['caller'],
  error: AppError,
  methods: readonly string[],
): PipelineRoute {
  const asking = req.method === 'OPTIONS';
  const allow = [...methods, 'OPTIONS'].join(', ');
  return {
    caller: asking ? 'none' : caller,
    access: [],
    body: 'none',
    serve: async ({ headers }) => {
      headers.set('Allow', allow);
      if (asking) return new Response(null, { status: 204, headers });
      throw error;
    },
  };
}

/**
 * The rate-limit stage: counts the request (`cost` requests: a tRPC batch) against its bucket,
 * setting the rate-limit headers; over the budget, 429. Health probes only report it.
 */
export function spendBudget(
  rateLimiter: RateLimiter,
  bucket: Bucket,
  route: Pick<PipelineRoute, 'cost' | 'uncounted'>,
  headers: Headers,
): Promise<void> {
  return route.uncounted
    ? reportRateLimit(rateLimiter, bucket, headers)
    : enforceRateLimit(rateLimiter, bucket, headers, route.cost);
}

/** The access stage: the first rule the caller breaks, thrown (401, 403 insufficient_scope…). */
export function checkAccess(principal: Principal | null, rules: readonly AccessRule[]) {
  for (const rule of rules) {
    const breach = accessBreach(principal, rule);
    if (breach) throw breach;
  }
}

/** `/api/users/` and `/api/users` are one path. */
const normalizePath = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

const takesNoBody = (method: string) => method === 'GET' || method === 'HEAD';

/** A door's requests through the pipeline: a fetch Request in, an answer out, never a throw. */
export function createPipeline<R extends PipelineRoute = PipelineRoute>(
  door: Door<R>,
  { getDatabase, rateLimiter = defaultRateLimiter(), sessionPrincipal }: PipelineOptions,
) {
  /** Unauthenticated requests are counted per client address. */
  const anonymous = (req: Request) => callerBucket(req, null, rateLimiter.limits);

  return async function pipeline(req: Request): Promise<Answer> {
    const started = performance.now();
    const requestId = requestIdFor(req);
    const headers = responseHeaders(requestId);
    const url = new URL(req.url);
    const path = normalizePath(url.pathname);
    let route: R | undefined;
    let answer: Answer;
    try {
      route = door.route(req, url, path);
      answer = await admit(route, { req, url, path, requestId, headers });
    } catch (error) {
      answer = envelope(error, route, { requestId, path, headers });
    }
    answer = door.finish?.(req, path, answer) ?? answer;
    // Refused before the request could be counted (a body over its cap, no database): the
    // answer still says the budget.
    if (!answer.headers.has('X-RateLimit-Limit')) {
      await reportRateLimit(rateLimiter, anonymous(req), answer.headers);
    }
    logRequest(req, path, requestId, answer.status, started);
    return answer;
  };

  type Start = Pick<Admitted, 'req' | 'url' | 'path' | 'requestId' | 'headers'>;

  async function admit(route: PipelineRoute, start: Start): Promise<Answer> {
    const { req, headers } = start;
    // Most requests (every GET) have no body: no promise to wait for.
    if (route.body !== 'none' && !takesNoBody(req.method)) refuseEncodedBody(req, headers);
    const cap = bodyCap(req, route);
    const body = cap === undefined ? undefined : await readCapped(req, cap);
    const principal = await callerOf(req, route, headers);
    const bucket =
      (route.bucket && (await route.bucket(req, body, rateLimiter.limits))) ??
      callerBucket(req, principal, rateLimiter.limits);
    await spendBudget(rateLimiter, bucket, route, headers);
    checkAccess(principal, route.access);
    const idempotent = async (fingerprint: object, run: () => Promise<Answer>) => {
      if (req.method !== 'POST' || !principal) return run();
      const { db } = await getDatabase();
      const key = req.headers.get('idempotency-key');
      const target = `${start.path}${start.url.search}`;
      return withIdempotency(
        { db, principal, key, method: 'POST', target, body: fingerprint, headers },
        run,
      );
    };
    return route.serve({ ...start, body, principal, getDatabase, idempotent });
  }

  /** The body stage's cap for the route: undefined when the pipeline reads no body. */
  function bodyCap(req: Request, route: PipelineRoute): number | undefined {
    const cap = route.body ?? MAX_BODY_BYTES;
    return cap === 'none' || cap === 'own' || takesNoBody(req.method) ? undefined : cap;
  }

  /** The principal stage: a bearer token, else the session where the route accepts it. */
  async function callerOf(req: Request, route: PipelineRoute, headers: Headers) {
    if (route.caller === 'none') return null;
    const { db } = await getDatabase();
    const session =
      route.acceptsSession && sessionPrincipal ? () => sessionPrincipal(req) : undefined;
    if (route.caller === 'optional') return principalFor(req, db, session);
    return requirePrincipal(req, db, session).catch(async (error: unknown) => {
      // Refused credentials are counted per client address, like missing ones; credentials
      // that could not be checked (no database) were not refused, and spend nothing.
      if (!isUnavailable(error)) await enforceRateLimit(rateLimiter, anonymous(req), headers);
      throw error;
    });
  }

  /** The error stage: anything thrown, as the door's error shape; no stack leaves the server. */
  function envelope(
    error: unknown,
    route: R | undefined,
    { requestId, path, headers }: { requestId: string; path: string; headers: Headers },
  ): Answer {
    const failure = toApiError(error);
    if (failure.status >= 500) {
      log('error', 'request failed', { requestId, path, error: describeError(error) });
    }
    if (failure.code === 'service_unavailable') headers.set('Retry-After', '5');
    return door.refusal(failure, headers, route);
  }
}
