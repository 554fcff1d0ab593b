import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import { AppError } from '@chorus/services';
import { hasAnyControl } from '@chorus/validators';
import type { StorageDriver } from '@chorus/storage';
import type { AnyRouter } from '@trpc/server';
import type { ZodType } from 'zod';
import type { Answer } from '../server/node-fetch';
import type { Admitted } from '../server/pipeline';
import type { Meta } from '../trpc/init';
import { proceduresOf } from '../trpc/internals';

export interface Route {
  method: string;
  /** The OpenAPI path template, e.g. `/api/users/{userId}`. */
  path: string;
  pattern: RegExp;
  /** The names of the template's parameters, in the order of the pattern's groups. */
  params: string[];
  /** The procedure's path in the router, split: `['users', 'list']`. */
  procedure: string[];
  meta: Meta;
  input: ZodType | undefined;
  /** A route served by a fetch handler of its own rather than a procedure (e.g. multipart). */
  handler?: HandlerRoute;
}

/**
 * What a handler route receives beside the request: a REST route that no procedure can serve
 * (trpc-to-openapi speaks JSON only). The pipeline has authenticated, rate-limited and checked
 * `meta.access` before it runs; it reads its own body, under its own cap.
 */
export interface HandlerContext {
  db: Db;
  /** The caller; null only on a route declared public (`openapi.protect: false`). */
  principal: Principal | null;
  requestId: string;
  origin: string;
  storage: StorageDriver;
  maxUploadBytes: number;
  /** The response headers the pipeline has prepared (request id, rate limits). */
  headers: Headers;
  /** The pipeline's idempotency stage, given what identifies the request (server/pipeline.ts). */
  idempotent: Admitted['idempotent'];
}

/** The caller of a protected route (the door authenticated them before the handler ran). */
export function signedIn(ctx: HandlerContext): Principal {
  if (!ctx.principal) throw new AppError('unauthorized', 'Authentication required.');
  return ctx.principal;
}

export interface HandlerRoute {
  method: 'GET' | 'POST';
  path: string;
  meta: Meta;
  /** Also accepts the dashboard session (same-origin requests), as the tRPC door does. */
  acceptsSession?: true;
  handle(req: Request, params: Map<string, string>, context: HandlerContext): Promise<Answer>;
}

export type RouteMatch =
  { route: Route; params: Record<string, string> } | { allow: string[] } | null;

const toPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '([^/]+)')}$`);

/** The order of methods in an `Allow` header. */
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const paramNames = (path: string) => [...path.matchAll(/\{([^/}]+)\}/g)].map((m) => m[1] ?? '');

/**
 * A parameter percent-decoded (`usr%5F1` is `usr_1`, as any URL library would read it). A value
 * whose decoding fails or gives a control character, which no id or slug holds, is kept as
 * sent: a malformed id in a path is simply not found (404), never a 400 or a database error.
 */
function decodeParam(value: string): string {
  try {
    const decoded = decodeURIComponent(value);
    return hasAnyControl(decoded) ? value : decoded;
  } catch {
    return value;
  }
}

/**
 * The template's parameters as matched in `path`, decoded, on an object without a prototype.
 * The path is split before decoding, so `%2F` stays inside its parameter.
 */
function paramsOf(route: Route, path: string): Record<string, string> {
  const values = route.pattern.exec(path) ?? [];
  const params = Object.create(null) as Record<string, string>;
  route.params.forEach((name, i) => (params[name] = decodeParam(values[i + 1] ?? '')));
  return params;
}

const segments = (path: string) => path.split('/').slice(1);
const isParam = (segment: string) => /^\{[^/}]+\}$/.test(segment);

/**
 * A template's shape: its parameters unnamed (`/api/content/posts/{}`), so that two templates
 * matching the same paths compare equal whatever their parameters are called.
 */
const shapeOf = (path: string) => path.replace(/\{[^/}]+\}/g, '{}');

/**
 * Which of two templates matching one path is the more specific: segment by segment from the
 * left, the first where one is literal and the other a parameter decides for the literal
 * (`/api/content/posts/validate` over `/api/content/posts/{id}`), as in every router. Negative:
 * `a` first.
 */
function bySpecificity(a: string, b: string): number {
  const [left, right] = [segments(a), segments(b)];
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const [p, q] = [isParam(left[i] ?? ''), isParam(right[i] ?? '')];
    if (p !== q) return p ? 1 : -1;
  }
  return 0;
}

/**
 * The REST routes: the handler routes and those read from the procedures' OpenAPI meta (one
 * source for routing and docs). A path is matched to one template, the most specific that
 * matches it; the method is then looked for among that template's routes only (405 with its
 * methods otherwise), so a literal segment is never answered by a parameter's route: `GET
 * /api/content/posts/validate` is 405 (POST only), not "post `validate` not found".
 */
export function routeTable(router: AnyRouter, handlers: HandlerRoute[] = []) {
  const routes: Route[] = handlers.map((handler) => ({
    method: handler.method,
    path: handler.path,
    pattern: toPattern(handler.path),
    params: paramNames(handler.path),
    procedure: [],
    meta: handler.meta,
    input: undefined,
    handler,
  }));
  for (const { name, meta, input } of proceduresOf(router)) {
    if (!meta?.openapi || meta.openapi.enabled === false) continue;
    const { method, path } = meta.openapi;
    routes.push({
      method,
      path,
      pattern: toPattern(path),
      params: paramNames(path),
      procedure: name.split('.'),
      meta,
      input,
    });
  }
  // Each route's shape, worked out once here rather than on every request.
  const shapes = new Map(routes.map((route) => [route, shapeOf(route.path)]));
  // Two routes of one method on one shape could never both be reached: refuse the table.
  for (const [i, route] of routes.entries()) {
    const twin = routes
      .slice(0, i)
      .find((r) => r.method === route.method && shapes.get(r) === shapes.get(route));
    if (twin) throw new Error(`${route.method} ${route.path} is declared twice (${twin.path}).`);
  }

  /** HEAD runs a GET route for its headers; not one with effects, such as a redirect route. */
  const answersHead = (route: Route) => route.method === 'GET' && !route.meta.redirect;

  /** The route for method and path, or the methods the path allows (405), or null (404). */
  function match(method: string, path: string): RouteMatch {
    const matching = routes.filter((route) => route.pattern.test(path));
    if (matching.length === 0) return null;
    const best = matching.reduce((a, b) => (bySpecificity(a.path, b.path) <= 0 ? a : b));
    const onPath = matching.filter((route) => shapes.get(route) === shapes.get(best));
    const route =
      method === 'HEAD' ? onPath.find(answersHead) : onPath.find((r) => r.method === method);
    if (route) return { route, params: paramsOf(route, path) };
    // One order whatever the routes' declaration order (handler routes come first).
    const allow = [...new Set(onPath.map((r) => r.method))].sort(
      (a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b),
    );
    if (onPath.some(answersHead)) allow.push('HEAD');
    return { allow };
  }

  return { routes, match };
}

export type RouteTable = ReturnType<typeof routeTable>;
