import { AppError } from '@chorus/services';
import type { FetchHandler } from '../server/listener';
import { otherMethodRoute, refusingRoute } from '../server/pipeline';
import { clientRoute, createOAuthDoor, publicRoute, type OAuthDoorOptions } from './door';
import { oauthEndpoints } from './endpoints';

/**
 * The authorization server's machine endpoints as the listener's mounts, served by the process
 * that owns the port like the API's doors (docs/oauth.md), through the same pipeline.
 * `/oauth/authorize` is a page, with sign-in and consent: it stays in the web app.
 */
export function oauthMounts(options: OAuthDoorOptions): [string, FetchHandler][] {
  const endpoints = oauthEndpoints(options);
  const client = (endpoint: Parameters<typeof clientRoute>[0]) => () =>
    clientRoute(endpoint, endpoints.checkClient);
  const metadata = publicRoute(endpoints.metadata);
  /** The OAuth routes: each endpoint at exactly its path, answering its methods only. */
  const table = new Map([
    ['/oauth/token', { methods: ['POST'], route: client(endpoints.token) }],
    ['/oauth/revoke', { methods: ['POST'], route: client(endpoints.revoke) }],
    ['/oauth/introspect', { methods: ['POST'], route: client(endpoints.introspect) }],
    [
      '/.well-known/oauth-authorization-server',
      { methods: ['GET', 'HEAD'], route: () => metadata },
    ],
  ]);
  const door = createOAuthDoor((req, path) => {
    const entry = table.get(path);
    if (!entry)
      return refusingRoute('none', new AppError('route_not_found', 'No route for this path.'));
    // A client route is made per request: it keeps that request's client authentication.
    if (entry.methods.includes(req.method)) return entry.route();
    const refused = new AppError('method_not_allowed', `${req.method} is not allowed here.`);
    return otherMethodRoute(req, 'none', refused, entry.methods);
  }, options);
  return [...table.keys()].map((path) => [path, door]);
}
