import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { ZodType } from 'zod';
import type { Meta } from '../trpc';

export interface Route {
  method: string;
  /** The OpenAPI path template, e.g. `/api/users/{userId}`. */
  path: string;
  pattern: RegExp;
  meta: Meta;
  input: ZodType | undefined;
}

export type RouteMatch = { route: Route } | { allow: string[] } | null;

const toPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`);

/** The REST routes, read from the procedures' OpenAPI meta: one source for routing and docs. */
export function routeTable(router: AnyRouter) {
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  const routes: Route[] = [];
  for (const procedure of Object.values(procedures)) {
    const meta = procedure._def.meta as Meta | undefined;
    if (!meta?.openapi || meta.openapi.enabled === false) continue;
    routes.push({
      method: meta.openapi.method,
      path: meta.openapi.path,
      pattern: toPattern(meta.openapi.path),
      meta,
      input: (procedure._def as unknown as { inputs: ZodType[] }).inputs[0],
    });
  }

  /** The route for method and path, or the methods the path allows (405), or null (404). */
  function match(method: string, path: string): RouteMatch {
    const onPath = routes.filter((route) => route.pattern.test(path));
    if (onPath.length === 0) return null;
    const lookup = method === 'HEAD' ? 'GET' : method;
    const route = onPath.find((r) => r.method === lookup);
    if (route) return { route };
    const allow = onPath.map((r) => r.method);
    if (allow.includes('GET')) allow.push('HEAD');
    return { allow };
  }

  return { routes, match };
}

export type RouteTable = ReturnType<typeof routeTable>;
