import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import type { ConnectedIntegration, ConnectPending } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { discoverNetworkChannels } from '../publishing/discover';
import { networkOf } from '../publishing/engine/settings';
import type { ApiKeyEntry, OAuthEntry } from './catalogue';
import { storeConnection } from './connections';
import { findEntry } from './catalogue';
import { callbackPath, requireEntry } from './listing';
import { startMastodonOAuth } from './mastodon-oauth';
import { buildAuthUrl, pkcePair } from './oauth-client';
import { createState, dropExpiredStates } from './oauth-states';
import { appOrigin, assertRedirectAllowed, configuredProvider } from './settings';

/**
 * Where the browser returns after an OAuth flow when the caller names no redirectUrl: the
 * dashboard's integrations page, which says how the connection went (`/integrations` was no
 * page at all).
 */
export const DEFAULT_RETURN_PATH = '/dashboard/integrations';

interface ConnectOptions {
  db: Db;
  principal: Principal;
  integrationId: string;
  /** The origin the request came in on (see appOrigin). */
  origin: string;
  redirectUrl?: string;
  apiKey?: string;
  /** Bluesky: the handle the app password belongs to. */
  handle?: string;
  /** Bluesky's PDS, Mastodon's instance: where the account lives. */
  serviceUrl?: string;
  now?: Date;
}

/**
 * Starts a connection: an OAuth integration answers `pending` with the third party's authorize
 * URL; an API-key integration is connected at once, except Mastodon without a token, which
 * answers `pending` with its instance's authorize URL.
 */
export async function connectIntegration(
  opts: ConnectOptions,
): Promise<ConnectPending | ConnectedIntegration> {
  const entry = requireEntry(opts.integrationId);
  assertConnectable(entry.id);
  return entry.authMethod === 'api_key' ? connectWithApiKey(entry, opts) : startOAuth(entry, opts);
}

/**
 * A `coming_soon` integration is refused before anything else about the request is looked at
 * (docs/integrations.md); the connect procedure calls this ahead of validating its input.
 */
export function assertConnectable(integrationId: string) {
  const entry = findEntry(integrationId);
  if (entry && entry.status !== 'active') {
    throw new AppError(
      'integration_unavailable',
      `${entry.name} is coming soon and cannot be connected yet.`,
    );
  }
}

async function connectWithApiKey(entry: ApiKeyEntry, opts: ConnectOptions) {
  const { apiKey } = opts;
  // Mastodon without a token: the user signs in on their instance instead.
  if (!apiKey && entry.id === 'mastodon') {
    const origin = appOrigin(opts.origin);
    if (opts.redirectUrl) assertRedirectAllowed(opts.redirectUrl, origin);
    return startMastodonOAuth({
      db: opts.db,
      accountId: opts.principal.accountId,
      userId: opts.principal.userId,
      serviceUrl: opts.serviceUrl,
      origin,
      redirectUrl: opts.redirectUrl ?? `${origin}${DEFAULT_RETURN_PATH}`,
      now: opts.now ?? new Date(),
    });
  }
  if (!apiKey) {
    throw new AppError('missing_api_key', `${entry.name} connects with an API key: send apiKey.`);
  }
  const base = {
    db: opts.db,
    accountId: opts.principal.accountId,
    userId: opts.principal.userId,
    integrationId: entry.id,
    scopes: [],
    now: opts.now ?? new Date(),
  };
  const network = networkOf(entry.id);
  if (!network) {
    return storeConnection({
      ...base,
      credentials: { kind: 'api_key', apiKey },
      // The key cannot be checked here: name the platform and the key's last four (docs/integrations.md).
      meta: { accountName: `${entry.name} (…${apiKey.slice(-4)})`, pages: [] },
    });
  }
  // A network checks the key by listing what it can publish to (docs/publishing.md). The server and
  // the handle are kept with the key, where the engine reads them (`extra`).
  const extra: Record<string, string> = {};
  if (opts.handle) extra.handle = opts.handle;
  if (opts.serviceUrl) extra.serviceUrl = opts.serviceUrl;
  const hasExtra = Object.keys(extra).length > 0;
  const discovered = await discoverNetworkChannels(network, {
    accessToken: apiKey,
    ...(hasExtra ? { extra } : {}),
  });
  return storeConnection({
    ...base,
    credentials: { kind: 'api_key', apiKey, ...(hasExtra ? { extra } : {}) },
    meta: { accountName: discovered[0]?.handle ?? entry.name, pages: [] },
    discovered,
  });
}

async function startOAuth(entry: OAuthEntry, opts: ConnectOptions): Promise<ConnectPending> {
  const provider = configuredProvider(entry);
  const now = opts.now ?? new Date();
  const origin = appOrigin(opts.origin);
  const callbackUrl = `${origin}${callbackPath(entry.id)}`;
  if (opts.redirectUrl) assertRedirectAllowed(opts.redirectUrl, origin);
  const { verifier, challenge } = pkcePair();
  await dropExpiredStates(opts.db, now);
  const state = await createState({
    db: opts.db,
    accountId: opts.principal.accountId,
    userId: opts.principal.userId,
    integrationId: entry.id,
    redirectUrl: opts.redirectUrl ?? `${origin}${DEFAULT_RETURN_PATH}`,
    callbackUrl,
    verifier,
    now,
  });
  return {
    status: 'pending',
    authUrl: buildAuthUrl(entry, provider, { callbackUrl, state, challenge }),
    provider: entry.id,
  };
}
