import { answering, FaultSwitches, pathOf, type Answer, type Fault } from './faults';
import { startStandIn, type StandIn } from './http-kit';
import { mastodonApiRoutes, type ApiContext, type MastodonLimits } from './mastodon-api';
import { mastodonMediaRoutes } from './mastodon-media';
import { mastodonOAuthRoutes } from './mastodon-oauth';
import { MastodonWorld, type MastodonMedia, type MastodonStatus } from './mastodon-world';
import { bearerToken, readParams } from './params';
import { findRoute, RateWindows, withMedia } from './routes';

/**
 * A Mastodon server on loopback, following docs.joinmastodon.org: statuses with
 * `Idempotency-Key` (a key seen within the hour answers the status it created), media v2 with
 * asynchronous processing (202, then 206 until processed), verify_credentials, the v2
 * instance with its limits, app registration and OAuth, `{ "error": … }` answers with
 * Mastodon's messages, and the `X-RateLimit-*` headers (300 requests per 5 minutes per account
 * by default, as Mastodon's own limit).
 */

export interface MastodonStandInOptions extends Partial<MastodonLimits> {
  rateLimit?: { limit: number; windowMs: number };
  /**
   * Numbers this instance's accounts 1, 2, 3… (as an early account on an old instance is
   * numbered), so two stand-ins have accounts of the same id, as two instances may: an account
   * id is only unique on its instance. By default every stand-in in the process draws its ids
   * from one sequence.
   */
  ownAccountIds?: boolean;
}

export interface MastodonStandIn extends StandIn {
  /** The first account's token (scopes `read write`). */
  token: string;
  accountId: string;
  addAccount(opts?: { username?: string; displayName?: string; scopes?: string[] }): {
    accountId: string;
    token: string;
  };
  /** Revokes a token: it then answers 401 "The access token was revoked". */
  revoke(token: string): void;
  /** Every token the instance knows (made in its settings or issued by its OAuth server). */
  grants(): { token: string; accountId: string | null; revoked: boolean }[];
  /** The account that approves at `/oauth/authorize` (the first one by default). */
  authorizeAs(accountId: string): void;
  faults: FaultSwitches;
  /** Every status created, in order, with its media. */
  published(): (MastodonStatus & { media: MastodonMedia[] })[];
  /** Sets a status's figures, as people reacting to it would. */
  engage(
    statusId: string,
    figures: { favourites?: number; reblogs?: number; replies?: number },
  ): void;
}

const PARSE_ERROR: Answer = {
  status: 400,
  body: { error: 'Error occurred while parsing request parameters' },
};

/** Mastodon's answers to faults tests switch on. */
export const mastodonFaults = {
  rateLimited: (resetInSeconds = 60): Fault => ({
    kind: 'answer',
    answer: {
      status: 429,
      body: { error: 'Too many requests' },
      headers: {
        'x-ratelimit-limit': '300',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': new Date(Date.now() + resetInSeconds * 1000).toISOString(),
      },
    },
  }),
  unavailable: (): Fault => ({
    kind: 'answer',
    answer: {
      status: 503,
      body: { error: 'There was a temporary problem serving your request, please try again' },
    },
  }),
  rejected: (message: string): Fault => ({
    kind: 'answer',
    answer: { status: 422, body: { error: message } },
  }),
};

export async function startMastodonStandIn(
  options: MastodonStandInOptions = {},
): Promise<MastodonStandIn> {
  const limits: MastodonLimits = {
    domain: options.domain ?? 'mastodon.test',
    maxCharacters: options.maxCharacters ?? 500,
    maxMediaAttachments: options.maxMediaAttachments ?? 4,
    imageSizeLimit: options.imageSizeLimit ?? 16 * 1024 * 1024,
    videoSizeLimit: options.videoSizeLimit ?? 99 * 1024 * 1024,
    processingPolls: options.processingPolls ?? 1,
  };
  const rate = options.rateLimit ?? { limit: 300, windowMs: 5 * 60 * 1000 };
  const windows = new RateWindows(rate.limit, rate.windowMs);
  const faults = new FaultSwitches();
  // The world needs the server's address, known once it listens.
  let world = new MastodonWorld('');
  let approver: string | undefined;
  let routes: ReturnType<typeof mastodonApiRoutes> = [];

  const server = await startStandIn(
    answering(faults, async (req, body) => {
      const url = new URL(req.url ?? '/', world.baseUrl);
      const params = await readParams(req, body);
      if (!params) return PARSE_ERROR;
      const token = bearerToken(req);
      const grant = token ? world.grants.get(token) : undefined;
      if (token && (!grant || grant.revoked)) {
        return {
          status: 401,
          body: {
            error: grant?.revoked ? 'The access token was revoked' : 'The access token is invalid',
          },
        };
      }
      const usage = windows.hit(grant?.accountId ?? token ?? req.socket.remoteAddress ?? '');
      const headers = {
        'x-ratelimit-limit': String(usage.limit),
        'x-ratelimit-remaining': String(usage.remaining),
        'x-ratelimit-reset': new Date(usage.resetAt).toISOString(),
      };
      if (usage.exceeded) return { status: 429, body: { error: 'Too many requests' }, headers };
      const handler = findRoute<ApiContext>(routes, req.method ?? 'GET', pathOf(req));
      const answer = handler
        ? await handler({ req, params, query: url.searchParams, grant })
        : { status: 404, body: { error: 'Record not found' } };
      return { ...answer, headers: { ...headers, ...answer.headers } };
    }),
  );

  world = new MastodonWorld(server.url, options.ownAccountIds);
  routes = [
    ...mastodonApiRoutes(world, limits),
    ...mastodonMediaRoutes(world, limits),
    ...mastodonOAuthRoutes(world, () => approver),
  ];
  const first = world.addAccount({ username: 'alice', displayName: 'Alice' });
  approver = first.account.id;

  return {
    ...server,
    token: first.token,
    accountId: first.account.id,
    addAccount(opts) {
      const { account, token } = world.addAccount(opts);
      return { accountId: account.id, token };
    },
    revoke(token) {
      const grant = world.grants.get(token);
      if (grant) grant.revoked = true;
    },
    grants: () =>
      [...world.grants].map(([token, grant]) => ({
        token,
        accountId: grant.accountId,
        revoked: grant.revoked,
      })),
    authorizeAs(accountId) {
      approver = accountId;
    },
    faults,
    published: () => withMedia(world.statuses.values(), world.media),
    engage(statusId, figures) {
      const status = world.statuses.get(statusId);
      if (!status) throw new Error(`no status ${statusId}`);
      Object.assign(status, figures);
    },
  };
}
