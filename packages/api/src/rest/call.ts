import { ZRedirect } from '@chorus/validators';
import type { AnyRouter } from '@trpc/server';
import type { Context } from '../trpc/context';
import { createCallerFactory } from '../trpc/init';
import { appRouter } from '../trpc/root';
import { formToJson, ownKeys } from './form';
import type { Route } from './routes';
import type { Answer } from '../server/node-fetch';
import { nextLink } from './link';
import { json } from '../server/respond';

export interface Call {
  route: Route;
  /** The request's path, for the `Link` to a list's next page. */
  path: string;
  /** The path parameters the route's template matched, percent-decoded. */
  params: Record<string, string>;
  /** The query string's parameters (routes without a body take their input from there). */
  query: URLSearchParams;
  /** The parsed body, for routes that take one. */
  input: object | undefined;
  context: Context;
  headers: Headers;
}

const createCaller = createCallerFactory(appRouter as AnyRouter);
type Callable = (input: unknown) => Promise<unknown>;

/**
 * Runs the route's procedure directly (the door has routed already: no second routing through
 * trpc-to-openapi, which stays the source of the OpenAPI document) and answers with the status
 * the route declares (or the procedure chose), a 302 for redirect routes. Errors are thrown,
 * for the door to put in the envelope.
 */
export async function callProcedure({
  route,
  path,
  params,
  query,
  input,
  context,
  headers,
}: Call): Promise<Answer> {
  // Query values are strings: the input schema says which are numbers, booleans or arrays.
  // A redirect route reads only its own keys (form.ts): a browser landing must be sent on.
  const read = route.meta.redirect ? ownKeys(query, route.input) : query;
  const fromUrl = input ?? (route.input ? formToJson(read, route.input) : {});
  const args = route.input ? { ...fromUrl, ...params } : undefined;
  let target: unknown = createCaller(context);
  for (const segment of route.procedure) target = (target as Record<string, unknown>)[segment];
  const output = await (target as Callable)(args);
  if (route.meta.redirect) return redirect(output, headers);
  const status = context.response.status ?? route.meta.successStatus ?? 200;
  if (status === 204) return new Response(null, { status, headers });
  if (route.method === 'GET') {
    const link = nextLink(path, query, output);
    if (link) headers.set('Link', link);
  }
  return json(status, output, headers);
}

/**
 * A redirect route's answer. Its URL carried a code and a state: keep it out of caches and of
 * the next page's Referer.
 */
function redirect(output: unknown, headers: Headers): Response {
  const { location } = ZRedirect.parse(output);
  headers.set('Location', location);
  headers.set('Cache-Control', 'no-store');
  headers.set('Referrer-Policy', 'no-referrer');
  return new Response(null, { status: 302, headers });
}
