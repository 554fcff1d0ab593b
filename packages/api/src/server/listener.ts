import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { decodable } from './decodable';
import { apiError, routeNotFound, toApiError, type ApiError } from './errors';
import { describeError, log } from './logger';
import {
  anonymousBucket,
  clientIp,
  defaultRateLimiter,
  peerClient,
  reportRateLimit,
  type RateLimiter,
} from '../rate-limit';
import {
  applyCors,
  closedToBrowsers,
  corsOriginsFromEnv,
  corsPath,
  isPreflight,
  type CorsOrigins,
} from './cors';
import { requestUrl, send, toRequest, type Answer } from './node-fetch';
import { malformed, refuse, refuseOnSocket } from './refuse';

/** A door under /api/: a fetch Request in, a Response or a JSON answer out. */
export type FetchHandler = (req: Request) => Promise<Answer>;
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface ApiListenerOptions {
  /**
   * Fetch-style handlers by path prefix, tried in order: under /api/, the tRPC door first and
   * the REST door (`/api`) last; outside it, the OAuth machine endpoints (`/oauth/token`…).
   * Any other path outside /api/ goes to `web`.
   */
  mounts: [prefix: string, handler: FetchHandler][];
  /** Prefixes under /api/ that the web app serves itself (next-auth's `/api/auth`). */
  webPaths: string[];
  /** Every other path: the web app (Next's request handler). */
  web: NodeHandler;
  /** Origins whose pages may call the API (default: CHORUS_CORS_ORIGINS). */
  corsOrigins?: CorsOrigins;
  /** The doors' limiter (default: the process's), whose budget the listener's own answers report. */
  rateLimiter?: RateLimiter;
}

const under = (path: string, prefix: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/**
 * Appends the socket's peer to X-Forwarded-For, as a proxy would, before any door or the web
 * app reads it: `clientIp` takes the last entry as the peer and believes entries to its left
 * only from proxies named in CHORUS_TRUSTED_PROXIES, so a client cannot name its own address.
 */
function stampPeer(req: IncomingMessage) {
  const peer = req.socket.remoteAddress;
  if (!peer) return;
  const raw: string[] = [];
  const sent: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const [name = '', value = ''] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
    if (name.toLowerCase() === 'x-forwarded-for') sent.push(value);
    else raw.push(name, value);
  }
  const value = [...sent, peer].join(', ');
  raw.push('X-Forwarded-For', value);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
  req.headers['x-forwarded-for'] = value;
}

/**
 * The rate-limit headers of an answer the listener gives itself (a preflight, a URL it cannot
 * read), which no door counted: the client address's budget, reported and never spent, as a
 * request without credentials would count (docs/rate-limits-and-idempotency.md). A preflight
 * is sent by the browser on its own before the call it asks about, which is counted.
 */
async function addressBudget(limiter: RateLimiter, req: IncomingMessage) {
  return budgetAt(limiter, clientIp({ headers: forwardedFor(req) }));
}

const forwardedFor = (req: IncomingMessage) => {
  const forwarded = req.headers['x-forwarded-for'];
  return new Headers(typeof forwarded === 'string' ? { 'x-forwarded-for': forwarded } : {});
};

/** The budget of requests without credentials from `address`, as answer headers. */
async function budgetAt(limiter: RateLimiter, address: string) {
  const answer = new Headers();
  await reportRateLimit(limiter, anonymousBucket(address, limiter.limits), answer);
  return Object.fromEntries(answer);
}

/**
 * Refuses on the socket (refuseOnSocket) with the rate-limit headers of `address`'s budget,
 * reported and never spent, as the listener's own answers; without them where the address is
 * unknown (behind a trusted proxy, for a request whose headers Node could not read) or the
 * store does not answer.
 */
function refuseWithBudget(
  limiter: () => RateLimiter,
  socket: Duplex,
  error: ApiError | undefined,
  address: string | undefined,
) {
  const budget = address === undefined ? Promise.resolve({}) : budgetAt(limiter(), address);
  void budget.catch(() => ({})).then((headers) => refuseOnSocket(socket, error, headers));
}

/** The client's address of a request that reached no listener (CONNECT, an upgrade). */
const addressOf = (req: IncomingMessage) =>
  clientIp({ headers: forwardedFor(req) }, { remoteAddress: req.socket.remoteAddress });

/**
 * One listener for the whole app: /api/* and the OAuth machine endpoints go to the API's own
 * handlers in this process, without the web framework's pipeline in between; everything else
 * goes to the web app. A request
 * whose URL cannot be read gets the error envelope, never a framework's plain 500. CORS is
 * decided here, for the doors and the OAuth endpoints alike (see cors.ts).
 */
export function createApiListener({
  mounts,
  webPaths,
  web,
  corsOrigins = corsOriginsFromEnv(),
  rateLimiter,
}: ApiListenerOptions) {
  const budget = (req: IncomingMessage) =>
    addressBudget((rateLimiter ??= defaultRateLimiter()), req).catch(() => ({}));
  return function listener(req: IncomingMessage, res: ServerResponse) {
    stampPeer(req);
    const incomingId = req.headers['x-request-id'];
    const id = typeof incomingId === 'string' ? incomingId : undefined;
    /** The listener's own refusal, in the envelope, with the headers every answer carries. */
    const refused = (error: ApiError) =>
      void budget(req).then((headers) => refuse(res, id, error, headers));
    const url = requestUrl(req);
    if (!url) return refused(malformed());
    const path = url.pathname;
    // Before any door, so that a preflight is answered without credentials, as browsers send it.
    if (corsPath(path) || closedToBrowsers(path)) {
      const rule = { origins: corsOrigins, closed: closedToBrowsers(path) };
      if (isPreflight(req)) {
        return void budget(req).then((headers) => applyCors(req, res, rule, id, headers));
      }
      applyCors(req, res, rule, id);
    }
    const api = under(path, '/api');
    // A door decodes each segment itself: one that does not decode is an unknown id, answered
    // after the credentials like any other (docs/api.md). The web app's paths would hand it
    // to a framework that may throw on it, and none of them names one: no route.
    if (api && webPaths.some((prefix) => under(path, prefix))) {
      return decodable(path) ? web(req, res) : refused(toApiError(routeNotFound(path)));
    }
    const handler = mounts.find(([prefix]) => under(path, prefix))?.[1];
    if (!handler && !api) return web(req, res);
    if (!handler) return refused(toApiError(routeNotFound(path)));
    let request: Request;
    try {
      request = toRequest(req, url);
    } catch {
      return refused(malformed());
    }
    handler(request)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        // The doors answer their own failures; this is a failure to write the answer.
        log('error', 'response failed', { path, error: describeError(error) });
        if (!res.headersSent)
          refuse(res, id, apiError('internal_error', 'An unexpected error occurred.'));
        else res.destroy();
      });
  };
}

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => unknown;

/** The limiter whose budget the server's own answers report (default: the process's). */
interface SocketAnswerOptions {
  rateLimiter?: RateLimiter;
}

/**
 * Protocol upgrades (WebSocket) go to the web app when it serves them (the development
 * server's live reload); the API answers over plain HTTP only, so one under /api/ is refused in
 * the envelope, and so is every one when there is no `web` (production: Next would hold the
 * connection open without ever answering).
 */
export function refuseUpgrade(
  web?: UpgradeHandler,
  { rateLimiter }: SocketAnswerOptions = {},
): UpgradeHandler {
  const limiter = () => (rateLimiter ??= defaultRateLimiter());
  return (req, socket, head) => {
    const path = requestUrl(req)?.pathname;
    if (!web || path === undefined || under(path, '/api')) {
      const refused = apiError('validation_error', 'Protocol upgrades are not served here.');
      return refuseWithBudget(limiter, socket, refused, addressOf(req));
    }
    return web(req, socket, head);
  };
}

/**
 * The app's HTTP server: parser refusals and CONNECT answered in the envelope (see
 * refuseOnSocket), and a missing Host refused by the listener in the envelope rather than by
 * Node with an empty 400.
 */
export function createHttpServer({ rateLimiter }: SocketAnswerOptions = {}): Server {
  const limiter = () => (rateLimiter ??= defaultRateLimiter());
  const server = createServer({ requireHostHeader: false });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return void socket.destroy();
    // No header was read: the socket's peer is the only address known.
    refuseWithBudget(limiter, socket, undefined, peerClient((socket as Socket).remoteAddress));
  });
  server.on('connect', (req: IncomingMessage, socket) => {
    const refused = apiError('method_not_allowed', 'CONNECT is not allowed here.');
    refuseWithBudget(limiter, socket, refused, addressOf(req));
  });
  return server;
}
