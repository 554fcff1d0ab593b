import type { Db } from '@chorus/db';
import { OAUTH_CODE_MAX, OAUTH_ERROR_MAX } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { networkOf } from '../publishing/engine/settings';
import { discoverNetworkChannels } from '../publishing/discover';
import type { DiscoveredChannel } from '../publishing/provider';
import { storeConnection } from './connections';
import { findEntry } from './catalogue';
import { completeMastodonOAuth } from './mastodon-oauth';
import { exchangeCode, fetchProfile, safeErrorCode } from './oauth-client';
import { consumeState, dropExpiredStates } from './oauth-states';
import { configuredProvider } from './settings';

/** `redirectUrl` with the outcome added to its query; its own query and fragment are kept. */
function returnTo(redirectUrl: string, provider: string, error?: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('status', error ? 'error' : 'connected');
  url.searchParams.set('provider', provider);
  if (error) url.searchParams.set('error', error);
  return url.toString();
}

/**
 * The one value of a callback parameter, as the query gave it (one value, or every value):
 * none is undefined, more than one or one over `max` characters null (unusable).
 */
function single(given: string | readonly string[] | undefined, max: number) {
  const values = typeof given === 'string' ? [given] : (given ?? []);
  if (values.length === 0) return undefined;
  const [value] = values;
  return values.length === 1 && value !== undefined && value.length <= max ? value : null;
}

/**
 * The third party's return to `GET /api/integrations/callback/{id}`, authorised by `state`
 * alone. Returns where to send the browser: the redirectUrl registered with the state, with
 * `status=connected` or `status=error&error=…`. A bad state is 400 invalid_state: without a
 * valid state there is no registered address to send anyone to. With one, a `code` or `error`
 * given twice or too long is `error=invalid_request`: the state is checked first.
 */
export async function completeOAuthCallback(opts: {
  db: Db;
  integrationId: string;
  state?: string;
  /** As the query gave it: one value, or every value. */
  code?: string | readonly string[];
  /** The third party's refusal (RFC 6749 §4.1.2.1), e.g. access_denied. */
  error?: string | readonly string[];
  now?: Date;
}): Promise<{ location: string }> {
  const { db, integrationId } = opts;
  const now = opts.now ?? new Date();
  await dropExpiredStates(db, now);
  const pending = await consumeState({ db, integrationId, state: opts.state, now });
  const fail = (error: string) => ({
    location: returnTo(pending.redirectUrl, integrationId, error),
  });

  const code = single(opts.code, OAUTH_CODE_MAX);
  const refusal = single(opts.error, OAUTH_ERROR_MAX);
  if (code === null || refusal === null) return fail('invalid_request');
  if (refusal) return fail(safeErrorCode(refusal, 'provider_error'));
  if (!code) return fail('invalid_request');
  if (integrationId === 'mastodon') {
    const done = await completeMastodonOAuth({ db, pending, code, now });
    return 'error' in done
      ? fail(done.error)
      : { location: returnTo(pending.redirectUrl, integrationId) };
  }
  const entry = findEntry(integrationId);
  if (entry?.authMethod !== 'oauth2' || entry.status !== 'active') {
    return fail('integration_unavailable');
  }
  let provider;
  try {
    provider = configuredProvider(entry);
  } catch {
    return fail('integration_not_configured');
  }

  const exchange = await exchangeCode(entry, provider, {
    code,
    verifier: pending.verifier,
    callbackUrl: pending.callbackUrl,
  });
  if (!exchange.ok) return fail(exchange.error);
  const { tokens } = exchange;
  const meta = await fetchProfile(entry, provider, tokens.accessToken);
  // A network's channels are part of the connection: without them there is nothing to connect.
  let discovered: DiscoveredChannel[] | undefined;
  const network = networkOf(integrationId);
  if (network) {
    try {
      discovered = await discoverNetworkChannels(network, {
        accessToken: tokens.accessToken,
        ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
        ...(tokens.expiresIn
          ? { expiresAt: new Date(now.getTime() + tokens.expiresIn * 1000).toISOString() }
          : {}),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return fail('channel_discovery_failed');
    }
  }
  await storeConnection({
    db,
    accountId: pending.accountId,
    userId: pending.userId,
    integrationId,
    credentials: { kind: 'oauth2', ...tokens },
    scopes: tokens.scopes ?? entry.scopes,
    meta,
    now,
    discovered,
  });
  return { location: returnTo(pending.redirectUrl, integrationId) };
}
