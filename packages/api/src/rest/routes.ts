import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import { AppError } from '@chorus/services';
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

/** The template's parameters as matched in `path`, on an object without a prototype. */
function paramsOf(route: Route, path: string): Record<string, string> {
  const values = route.pattern.exec(path) ?? [];
  const params = Object.create(null) as Record<string, string>;
  route.params.forEach((name, i) => (params[name] = values[i + 1] ?? ''));
  return params;
}

/**
 * The REST routes: the handler routes, then those read from the procedures' OpenAPI meta (one
 * source for routing and docs).
 */
export function routeTable(router: AnyRouter, handlers: HandlerRoute[] = []) {
  // Handler routes first: their paths are literal (`/api/content/posts/export`), and a
  // procedure's template (`/api/content/posts/{id}`) would otherwise answer them.
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
    // Matching goes in declaration order, as in trpc-to-openapi: a template declared earlier
    // would swallow this literal path, and the two doors would disagree with the docs.
    const shadow = routes.find((r) => r.method === method && r.pattern.test(path));
    if (shadow)
      throw new Error(`${method} ${path} is shadowed by ${shadow.path}: declare it first.`);
    routes.push({
      method: meta.openapi.method,
      path: meta.openapi.path,
      pattern: toPattern(meta.openapi.path),
      params: paramNames(meta.openapi.path),
      procedure: name.split('.'),
      meta,
      input,
    });
  }

  /** HEAD runs a GET route for its headers; not one with effects, such as a redirect route. */
  const answersHead = (route: Route) => route.method === 'GET' && !route.meta.redirect;

  /** The route for method and path, or the methods the path allows (405), or null (404). */
  function match(method: string, path: string): RouteMatch {
    const onPath = routes.filter((route) => route.pattern.test(path));
    if (onPath.length === 0) return null;
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
