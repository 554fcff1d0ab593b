import type { Db } from '@chorus/db';
import type { ConnectedIntegration, ConnectPending } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { discoverNetworkChannels } from '../publishing/discover';
import { assertServiceAllowed } from '../publishing/service-url';
import { storeConnection } from './connections';
import { callbackPath } from './listing';
import { instanceApp, instanceOAuth, registeredApp, SCOPES } from './mastodon-app';
import { buildAuthUrl, exchangeCode, pkcePair, type TokenSet } from './oauth-client';
import { createState, dropExpiredStates } from './oauth-states';

/**
 * Mastodon without a pasted token: OAuth on the user's own instance, with Chorus's app there
 * (mastodon-app.ts): the authorization code flow with PKCE against the instance's Doorkeeper
 * endpoints (docs.joinmastodon.org, "OAuth").
 */

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
  const app = await registeredApp(db, pending.serviceUrl, pending.callbackUrl);
  if (!app) return { error: 'integration_unavailable' };
  const { entry, provider } = instanceOAuth(pending.serviceUrl, app);
  const exchange = await exchangeCode(entry, provider, {
    code: opts.code,
    verifier: pending.verifier,
    callbackUrl: pending.callbackUrl,
  });
  if (!exchange.ok) return { error: exchange.error };
  const tokens: TokenSet = exchange.tokens;
  // The app's id too: revoking the token on disconnect needs the app it was issued to.
  const extra = { serviceUrl: pending.serviceUrl, clientId: app.clientId };
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
