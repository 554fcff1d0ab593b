import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { apiError } from './errors';
import { requestIdFrom } from './request-id';
import { API_VERSION, apiSecurityHeaders } from './security-headers';
import { refuse } from './refuse';

/**
 * Which web origins may call the API from a browser (CHORUS_CORS_ORIGINS): `*` for any, or a
 * set of exact origins. Empty: none (the default), and browsers keep to same-origin calls.
 */
export type CorsOrigins = '*' | ReadonlySet<string>;

/**
 * Parses CHORUS_CORS_ORIGINS: comma-separated `scheme://host[:port]` origins, or `*` alone.
 * A bad entry throws, naming the variable, so that start-up stops on it.
 */
export function corsOriginsFromEnv(env: Record<string, string | undefined> = process.env) {
  const entries = (env.CHORUS_CORS_ORIGINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.includes('*')) {
    if (entries.length > 1) {
      throw new Error('CHORUS_CORS_ORIGINS: `*` allows every origin, so it must stand alone.');
    }
    return '*' satisfies CorsOrigins;
  }
  const origins = new Set<string>();
  for (const entry of entries) {
    let origin = 'null';
    try {
      origin = new URL(entry).origin;
    } catch {
      // Reported below.
    }
    // An origin is a scheme, a host and a port: no path, query or credentials (a browser's
    // Origin header never has them, so such an entry could never match).
    if (!/^https?:\/\//.test(origin) || origin !== entry.replace(/\/$/, '').toLowerCase()) {
      throw new Error(
        `CHORUS_CORS_ORIGINS: "${entry}" is not an origin (scheme://host[:port], e.g. https://app.example.com).`,
      );
    }
    origins.add(origin);
  }
  return origins as CorsOrigins;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Paths a page on another origin may call: the API (bearer tokens), and the OAuth endpoints a
 * public client in the browser needs (token, revocation, the metadata). Not next-auth's
 * `/api/auth` nor any dashboard page: those work by cookie, and stay same-origin.
 */
export const corsPath = (path: string) =>
  (under(path, '/api') && !under(path, '/api/auth')) ||
  path === '/oauth/token' ||
  path === '/oauth/revoke' ||
  path === '/.well-known/oauth-authorization-server';

/**
 * Paths no page may call, whatever CHORUS_CORS_ORIGINS says: introspection is for confidential
 * clients (their secret authenticates the call), and a secret in a page is no secret. A
 * preflight to it is refused (403), saying so, rather than left to the endpoint (405).
 */
export const closedToBrowsers = (path: string) => path === '/oauth/introspect';

/** A CORS preflight (the Fetch standard): OPTIONS with Origin and Access-Control-Request-Method. */
export const isPreflight = (req: IncomingMessage) =>
  req.method === 'OPTIONS' &&
  req.headers.origin !== undefined &&
  req.headers['access-control-request-method'] !== undefined;

const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** Request headers a caller may send besides the safelisted ones. */
const ALLOW_HEADERS =
  'Authorization, Content-Type, Idempotency-Key, X-Request-Id, If-None-Match, Range';
/** Answer headers a page may read besides the safelisted ones. */
const EXPOSE_HEADERS = [
  'X-Request-Id',
  'API-Version',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
  'Location',
  'Link',
  'ETag',
  'Allow',
  'WWW-Authenticate',
  'Content-Disposition',
  'Content-Range',
  'Accept-Ranges',
].join(', ');
/** How long a browser may reuse a preflight's answer: short, so a configuration change shows. */
const MAX_AGE_SECONDS = '600';

/**
 * Answers headers with `Vary` merged: what the listener set (`Origin`) and what the door or
 * the web app says, where Node would let the latter replace the former.
 */
function keepVary(res: ServerResponse) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const index = args.findIndex((arg) => typeof arg === 'object' && arg !== null);
    const headers = args[index] as OutgoingHttpHeaders | unknown[] | undefined;
    const ours = res.getHeader('vary');
    if (headers && !Array.isArray(headers) && ours !== undefined) {
      const name = Object.keys(headers).find((key) => key.toLowerCase() === 'vary');
      if (name !== undefined) {
        const merged = { ...headers, [name]: `${String(ours)}, ${String(headers[name])}` };
        args[index] = merged;
      }
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

const allowedOrigin = (origins: CorsOrigins, origin: string) =>
  origins === '*' ? '*' : origins.has(origin) ? origin : undefined;

/**
 * Cross-origin resource sharing (the Fetch standard) for a request on a CORS path, before any
 * door or authentication: a preflight is answered here, 204 for an allowed origin, 403 in the
 * envelope otherwise (and always on a path closed to browsers); any other request from an
 * allowed origin gets its answer's headers. A preflight's answer carries `answerHeaders` too:
 * those every answer of the API carries (rate limits). Credentials (cookies) are never
 * allowed: no answer says Access-Control-Allow-Credentials, so a browser refuses to show a
 * cookie-bearing cross-origin answer, and `*` can never stand for "any site, with my session".
 * Answers whether the request has been answered.
 */
export function applyCors(
  req: IncomingMessage,
  res: ServerResponse,
  { origins, closed = false }: { origins: CorsOrigins; closed?: boolean },
  requestId: string | undefined,
  answerHeaders: Record<string, string> = {},
): boolean {
  const origin = req.headers.origin;
  // The answer depends on Origin whenever an origin could be allowed, so caches must key on it.
  if (!closed && (origins === '*' || origins.size > 0)) {
    res.setHeader('Vary', 'Origin');
    keepVary(res);
  }
  const allowed = closed || origin === undefined ? undefined : allowedOrigin(origins, origin);
  if (isPreflight(req)) {
    if (!allowed) {
      const message = closed
        ? 'This endpoint is for confidential clients, which call it from a server, never from a browser.'
        : `The origin ${origin} may not call this API from a browser.`;
      refuse(res, requestId, apiError('forbidden', message), answerHeaders);
      return true;
    }
    res.writeHead(204, {
      'X-Request-Id': requestIdFrom(requestId),
      'API-Version': API_VERSION,
      ...apiSecurityHeaders(),
      ...answerHeaders,
      'Access-Control-Allow-Origin': allowed,
      'Access-Control-Allow-Methods': ALLOW_METHODS,
      'Access-Control-Allow-Headers': ALLOW_HEADERS,
      'Access-Control-Max-Age': MAX_AGE_SECONDS,
      Vary: 'Access-Control-Request-Method, Access-Control-Request-Headers',
    });
    res.end();
    return true;
  }
  if (allowed) {
    res.setHeader('Access-Control-Allow-Origin', allowed);
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  }
  return false;
}
