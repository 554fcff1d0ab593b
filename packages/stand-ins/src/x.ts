import { answering, FaultSwitches, pathOf, type Answer, type Fault } from './faults';
import { startStandIn, type StandIn } from './http-kit';
import { bearerToken, readParams } from './params';
import { findRoute, RateWindows, withMedia } from './routes';
import { userWith, xApiRoutes, type XContext } from './x-api';
import { xMediaRoutes } from './x-media';
import { xOAuthRoutes, type XClient } from './x-oauth';
import {
  invalidRequest,
  problem,
  unauthorized,
  xSecret,
  XWorld,
  type XMedia,
  type XTweet,
  type XUser,
} from './x-world';

/**
 * X API v2 on loopback, following docs.x.com: `POST /2/tweets` (media, replies, X's weighted
 * length, duplicate refusal), media upload v2 (chunked with STATUS polling, one-request images,
 * alt text), post lookup with `public_metrics`, `GET /2/users/me`, OAuth 2.0 with rotating
 * refresh tokens; problem+json errors and the `x-rate-limit-*` headers (reset in epoch seconds),
 * counted per user and endpoint (300 per 15 minutes by default).
 */

export interface XStandInOptions {
  /** STATUS answers `in_progress` this many times before `succeeded` (video and GIF). */
  processingPolls?: number;
  /** The `check_after_secs` X gives while processing. */
  checkAfterSecs?: number;
  /** Processing of every video and GIF ends `failed` with this message. */
  processingError?: string;
  rateLimit?: { limit: number; windowMs: number };
}

export const X_SCOPES = [
  'tweet.read',
  'tweet.write',
  'users.read',
  'media.write',
  'offline.access',
];

export interface XStandIn extends StandIn {
  /** A confidential client (HTTP Basic at the token endpoint). */
  client: { clientId: string; clientSecret: string };
  userId: string;
  username: string;
  token: string;
  refreshToken: string;
  addUser(opts?: Partial<Omit<XUser, 'id'>> & { scopes?: string[] }): {
    userId: string;
    token: string;
    refreshToken: string;
  };
  /** The access token has expired (401); its refresh token still works. */
  expire(token: string): void;
  /** The user who approves at `/i/oauth2/authorize` (the first one by default). */
  authorizeAs(userId: string): void;
  /** The user revoked the app: the user's access and refresh tokens all stop working. */
  revoke(userId: string): void;
  faults: FaultSwitches;
  /** Every post made, in order, with its media. */
  published(): (XTweet & { media: XMedia[] })[];
  engage(
    tweetId: string,
    figures: Partial<Pick<XTweet, 'likes' | 'retweets' | 'quotes' | 'replies' | 'impressions'>>,
  ): void;
}

const rateHeaders = (limit: number, remaining: number, resetAt: number) => ({
  'x-rate-limit-limit': String(limit),
  'x-rate-limit-remaining': String(remaining),
  'x-rate-limit-reset': String(Math.ceil(resetAt / 1000)),
});

/** X's answers to faults tests switch on. */
export const xFaults = {
  rateLimited: (resetInSeconds = 60): Fault => ({
    kind: 'answer',
    answer: {
      ...problem(429, 'Too Many Requests', 'Too Many Requests'),
      headers: rateHeaders(100, 0, Date.now() + resetInSeconds * 1000),
    },
  }),
  unavailable: (): Fault => ({
    kind: 'answer',
    answer: problem(503, 'Service Unavailable', 'Service Unavailable'),
  }),
  rejected: (detail: string): Fault => ({
    kind: 'answer',
    answer: problem(403, 'Forbidden', detail),
  }),
};

const JSON_ONLY = new Set(['/2/tweets', '/2/media/metadata']);

export async function startXStandIn(options: XStandInOptions = {}): Promise<XStandIn> {
  const rate = options.rateLimit ?? { limit: 300, windowMs: 15 * 60 * 1000 };
  const windows = new RateWindows(rate.limit, rate.windowMs);
  const faults = new FaultSwitches();
  const client = { clientId: xSecret(), clientSecret: xSecret() };
  const clients = new Map<string, XClient>([[client.clientId, client]]);
  let world = new XWorld('');
  let approver: string | undefined;
  let routes: ReturnType<typeof xApiRoutes> = [];

  const dispatch = async (ctx: XContext, path: string): Promise<Answer> => {
    const handler = findRoute<XContext>(routes, ctx.req.method ?? 'GET', path);
    if (!handler)
      return {
        status: 404,
        body: { errors: [{ message: 'Sorry, that page does not exist', code: 34 }] },
      };
    if (!path.startsWith('/2/') || path.startsWith('/2/oauth2/')) return handler(ctx);
    if (!ctx.grant) return unauthorized();
    const usage = windows.hit(
      `${ctx.grant.userId} ${ctx.req.method} ${path.replace(/\d{6,}/g, ':id')}`,
    );
    const headers = rateHeaders(usage.limit, usage.remaining, usage.resetAt);
    if (usage.exceeded)
      return { ...problem(429, 'Too Many Requests', 'Too Many Requests'), headers };
    const answer = await handler(ctx);
    return { ...answer, headers: { ...headers, ...answer.headers } };
  };

  const server = await startStandIn(
    answering(faults, async (req, body) => {
      const path = pathOf(req);
      const params = await readParams(req, body);
      const isJson = (req.headers['content-type'] ?? '').startsWith('application/json');
      if (!params || (JSON_ONLY.has(path) && req.method === 'POST' && !isJson)) {
        return invalidRequest('The request body must be JSON.');
      }
      const token = bearerToken(req);
      const found = token ? world.grants.get(token) : undefined;
      const grant = found && !found.revoked && found.expiresAt > Date.now() ? found : undefined;
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      return dispatch({ req, params, query, grant }, path);
    }),
  );

  world = new XWorld(server.url);
  const guard = (ctx: XContext, scope: string) => userWith(world, ctx, scope);
  routes = [
    ...xApiRoutes(world),
    ...xMediaRoutes(
      world,
      {
        processingPolls: options.processingPolls ?? 0,
        checkAfterSecs: options.checkAfterSecs ?? 1,
        processingError: options.processingError,
      },
      guard,
    ),
    ...xOAuthRoutes(world, clients, () => approver),
  ];
  const addUser: XStandIn['addUser'] = (opts = {}) => {
    const user = world.addUser(opts);
    const issued = world.issue(user.id, opts.scopes ?? X_SCOPES, client.clientId);
    return {
      userId: user.id,
      token: issued.access_token,
      refreshToken: issued.refresh_token ?? '',
    };
  };
  const first = addUser({ username: 'alice', name: 'Alice' });
  approver = first.userId;

  return {
    ...server,
    client,
    ...first,
    username: 'alice',
    addUser,
    authorizeAs(userId) {
      approver = userId;
    },
    expire(token) {
      const grant = world.grants.get(token);
      if (grant) grant.expiresAt = Date.now() - 1;
    },
    revoke(userId) {
      for (const grant of [...world.grants.values(), ...world.refreshTokens.values()]) {
        if (grant.userId === userId) grant.revoked = true;
      }
    },
    faults,
    published: () => withMedia(world.tweets.values(), world.media),
    engage(tweetId, figures) {
      const tweet = world.tweets.get(tweetId);
      if (!tweet) throw new Error(`no post ${tweetId}`);
      Object.assign(tweet, figures);
    },
  };
}
