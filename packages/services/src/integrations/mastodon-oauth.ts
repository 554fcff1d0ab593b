import { and, eq, mastodonApps, type Db } from '@chorus/db';
import type { ConnectedIntegration, ConnectPending } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { discoverNetworkChannels } from '../publishing/discover';
import { assertServiceAllowed } from '../publishing/service-url';
import type { OAuthEntry } from './catalogue';
import { storeConnection } from './connections';
import { seal, unseal } from './encryption';
import { callbackPath } from './listing';
import { buildAuthUrl, exchangeCode, pkcePair, type TokenSet } from './oauth-client';
import { createState, dropExpiredStates } from './oauth-states';
import type { ConfiguredProvider } from './settings';

/**
 * Mastodon without a pasted token: OAuth on the user's own instance. There is no app to
 * configure ahead, since every instance is its own server: Chorus registers itself on an
 * instance (`POST /api/v1/apps`) the first time someone connects through it, keeps that app
 * (one per instance and callback URL), and runs the authorization code flow with PKCE against
 * the instance's Doorkeeper endpoints (docs.joinmastodon.org, "OAuth").
 */

/** What publishing needs and nothing more: the same scopes the setup steps ask of a token. */
const SCOPES = ['read:accounts', 'read:statuses', 'write:media', 'write:statuses'];
const TIMEOUT_MS = 10_000;

/** The instance's OAuth server, as the generic OAuth client reads a catalogue entry. */
function instanceOAuth(instanceUrl: string, app: { clientId: string; clientSecret: string }) {
  const entry: OAuthEntry = {
    id: 'mastodon',
    name: 'Mastodon',
    type: 'social',
    description: '',
    status: 'active',
    authMethod: 'oauth2',
    scopes: SCOPES,
    clientAuth: 'client_secret_post',
    urls: {
      authorize: `${instanceUrl}/oauth/authorize`,
      token: `${instanceUrl}/oauth/token`,
      profile: `${instanceUrl}/api/v1/accounts/verify_credentials`,
    },
    profile: { accountName: 'username' },
    setupSteps: [],
  };
  const provider: ConfiguredProvider = {
    ...app,
    authorizeUrl: entry.urls.authorize,
    tokenUrl: entry.urls.token,
    profileUrl: entry.urls.profile,
    revokeUrl: `${instanceUrl}/oauth/revoke`,
    metricsUrl: undefined,
  };
  return { entry, provider };
}

const appContext = (instanceUrl: string, redirectUri: string) =>
  `mastodon-app:${instanceUrl}:${redirectUri}`;

const refused = (message: string) =>
  new AppError('validation_error', message, { issues: [{ path: 'serviceUrl', message }] });

/** Our app on the instance for this callback URL: the one registered before, else a new one. */
async function instanceApp(db: Db, instanceUrl: string, redirectUri: string) {
  const find = async () => {
    const [row] = await db
      .select()
      .from(mastodonApps)
      .where(
        and(eq(mastodonApps.instanceUrl, instanceUrl), eq(mastodonApps.redirectUri, redirectUri)),
      );
    return row
      ? {
          clientId: row.clientId,
          clientSecret: unseal(row.clientSecret, appContext(instanceUrl, redirectUri)),
        }
      : null;
  };
  const known = await find();
  if (known) return known;
  let res: Response;
  try {
    res = await fetch(`${instanceUrl}/api/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        client_name: 'Chorus',
        redirect_uris: [redirectUri],
        scopes: SCOPES.join(' '),
        website: new URL(redirectUri).origin,
      }),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new AppError('integration_unreachable', `The instance ${instanceUrl} cannot be reached.`);
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  const clientId = typeof body.client_id === 'string' ? body.client_id : '';
  const clientSecret = typeof body.client_secret === 'string' ? body.client_secret : '';
  if (!res.ok || !clientId || !clientSecret) {
    const said = typeof body.error === 'string' ? `: ${body.error.slice(0, 200)}` : '';
    throw refused(`The instance refused to register Chorus${said}.`);
  }
  // Two first connections at once each register an app; the first stored is the one kept.
  await db
    .insert(mastodonApps)
    .values({
      instanceUrl,
      redirectUri,
      clientId,
      clientSecret: seal(clientSecret, appContext(instanceUrl, redirectUri)),
    })
    .onConflictDoNothing();
  return (await find()) ?? { clientId, clientSecret };
}

/** Starts the grant on the instance: answers `pending` with its authorize URL. */
export async function startMastodonOAuth(opts: {
  db: Db;
  accountId: string;
  userId: string;
  /** The instance, as the user gave it. */
  serviceUrl: string | undefined;
  /** This service's origin and where the browser returns after the grant. */
  origin: string;
  redirectUrl: string;
  now: Date;
}): Promise<ConnectPending> {
  if (!opts.serviceUrl) {
    const message =
      'Give your instance as serviceUrl (with an access token as apiKey, or without one to sign in there).';
    throw new AppError('validation_error', message, {
      issues: [{ path: 'serviceUrl', message }],
    });
  }
  await assertServiceAllowed(opts.serviceUrl);
  const instanceUrl = new URL(opts.serviceUrl).origin;
  const callbackUrl = `${opts.origin}${callbackPath('mastodon')}`;
  const app = await instanceApp(opts.db, instanceUrl, callbackUrl);
  const { entry, provider } = instanceOAuth(instanceUrl, app);
  const { verifier, challenge } = pkcePair();
  await dropExpiredStates(opts.db, opts.now);
  const state = await createState({
    db: opts.db,
    accountId: opts.accountId,
    userId: opts.userId,
    integrationId: 'mastodon',
    redirectUrl: opts.redirectUrl,
    callbackUrl,
    verifier,
    serviceUrl: instanceUrl,
    now: opts.now,
  });
  return {
    status: 'pending',
    authUrl: buildAuthUrl(entry, provider, { callbackUrl, state, challenge }),
    provider: 'mastodon',
  };
}

/**
 * The instance's return with a code: exchanged for a token with our app there, then the
 * connection stored as a pasted token would be (its channel listed by the network). Answers
 * the connection, or the error code for the browser's return URL.
 */
export async function completeMastodonOAuth(opts: {
  db: Db;
  pending: {
    accountId: string;
    userId: string;
    callbackUrl: string;
    serviceUrl: string | null;
    verifier: string;
  };
  code: string;
  now: Date;
}): Promise<ConnectedIntegration | { error: string }> {
  const { db, pending } = opts;
  if (!pending.serviceUrl) return { error: 'invalid_request' };
  const [row] = await db
    .select()
    .from(mastodonApps)
    .where(
      and(
        eq(mastodonApps.instanceUrl, pending.serviceUrl),
        eq(mastodonApps.redirectUri, pending.callbackUrl),
      ),
    );
  if (!row) return { error: 'integration_unavailable' };
  const app = {
    clientId: row.clientId,
    clientSecret: unseal(row.clientSecret, appContext(row.instanceUrl, row.redirectUri)),
  };
  const { entry, provider } = instanceOAuth(pending.serviceUrl, app);
  const exchange = await exchangeCode(entry, provider, {
    code: opts.code,
    verifier: pending.verifier,
    callbackUrl: pending.callbackUrl,
  });
  if (!exchange.ok) return { error: exchange.error };
  const tokens: TokenSet = exchange.tokens;
  const extra = { serviceUrl: pending.serviceUrl };
  let discovered;
  try {
    discovered = await discoverNetworkChannels('mastodon', {
      accessToken: tokens.accessToken,
      extra,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { error: 'channel_discovery_failed' };
  }
  return storeConnection({
    db,
    accountId: pending.accountId,
    userId: pending.userId,
    integrationId: 'mastodon',
    credentials: { kind: 'oauth2', ...tokens, extra },
    scopes: tokens.scopes ?? SCOPES,
    meta: { accountName: discovered[0]?.handle ?? 'Mastodon', pages: [] },
    now: opts.now,
    discovered,
  });
}
