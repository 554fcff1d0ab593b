import { apiError } from '../server/errors';
import type { FetchHandler } from '../server/listener';
import { requestIdFor } from '../server/request-id';
import { logRequest } from '../server/request-log';
import { errorResponse, responseHeaders } from '../server/respond';
import { createOAuthEndpoints, type OAuthEndpointsOptions } from './endpoints';

type Endpoint = (req: Request) => Promise<Response> | Response;

/** Any other method is 405 naming the allowed ones, a path below the endpoint's 404. */
function refusal(req: Request, path: string, methods: string[]) {
  const headers = responseHeaders(requestIdFor(req));
  if (new URL(req.url).pathname !== path) {
    return errorResponse(apiError('route_not_found', 'No route for this path.'), headers);
  }
  headers.set('Allow', methods.join(', '));
  return errorResponse(
    apiError('method_not_allowed', `${req.method} is not allowed here.`),
    headers,
  );
}

/** An endpoint at exactly `path`, answering `methods` only, its requests logged. */
const at = (path: string, methods: string[], endpoint: Endpoint): [string, FetchHandler] => [
  path,
  async (req) => {
    const started = performance.now();
    const served = new URL(req.url).pathname === path && methods.includes(req.method);
    const response = served ? await endpoint(req) : refusal(req, path, methods);
    logRequest(req, path, requestIdFor(req), response.status, started);
    return response;
  },
];

/**
 * The authorization server's machine endpoints as the listener's mounts, served by the process
 * that owns the port like the API's doors (docs/oauth.md). `/oauth/authorize` is a page, with
 * sign-in and consent: it stays in the web app.
 */
export function oauthMounts(options: OAuthEndpointsOptions): [string, FetchHandler][] {
  const endpoints = createOAuthEndpoints(options);
  return [
    at('/oauth/token', ['POST'], endpoints.token),
    at('/oauth/revoke', ['POST'], endpoints.revoke),
    at('/oauth/introspect', ['POST'], endpoints.introspect),
    at('/.well-known/oauth-authorization-server', ['GET', 'HEAD'], endpoints.metadata),
  ];
}
