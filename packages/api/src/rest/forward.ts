import { ZRedirect } from '@chorus/validators';
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import type { Context } from '../context';
import { appRouter } from '../root';
import type { Route } from './routes';

export interface Forward {
  route: Route;
  /** Normalised path and the query string, as the client sent them. */
  path: string;
  search: string;
  /** The parsed body, for routes that take one. */
  input: object | undefined;
  context: Context;
  headers: Headers;
}

/**
 * Runs the route's procedure through trpc-to-openapi and answers with the status the route
 * declares (or the procedure chose), a 302 for redirect routes. Errors are thrown, for the
 * door to put in the envelope.
 */
export async function forwardToProcedure({
  route,
  path,
  search,
  input,
  context,
  headers,
}: Forward) {
  // A fixed origin sidesteps trpc-to-openapi's string-replace routing on the real host name.
  const forwarded = new Request(`http://localhost${path}${search}`, {
    method: route.method,
    headers: { 'content-type': 'application/json' },
    body: input && JSON.stringify(input),
  });
  let failure: unknown;
  const result = await createOpenApiFetchHandler({
    // Route paths already carry /api; an empty endpoint makes the library strip nothing.
    endpoint: '' as `/${string}`,
    router: appRouter,
    req: forwarded,
    createContext: () => context,
    onError: ({ error }) => {
      failure = error;
    },
  });
  if (failure !== undefined) throw failure;
  if (route.meta.redirect) return redirect(await result.json(), headers);
  const status = context.response.status ?? route.meta.successStatus ?? 200;
  if (status === 204) return new Response(null, { status, headers });
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(await result.text(), { status, headers });
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
