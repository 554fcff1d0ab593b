import { z } from 'zod';
import type { ProviderCredentials } from '../../provider';
import { requestJson } from '../common/json';
import { instanceBase } from './api';

/**
 * Connecting Mastodon with OAuth: each instance is its own authorization server, so Chorus
 * registers an app on an instance the first time someone connects from it (`POST /api/v1/apps`),
 * then runs the authorization code flow with PKCE (Mastodon 4.3+; older instances ignore it).
 * Mastodon's tokens do not expire and come without a refresh token.
 */

/** What publishing needs: the account, reading statuses back (metrics), posting with media. */
export const MASTODON_SCOPES = ['read:accounts', 'read:statuses', 'write:media', 'write:statuses'];

const ZApp = z.object({ client_id: z.string(), client_secret: z.string() });
const ZToken = z.object({ access_token: z.string(), scope: z.string().optional() });

export async function registerMastodonApp(
  instanceUrl: string,
  app: { clientName: string; redirectUri: string; website?: string },
  signal?: AbortSignal,
): Promise<{ clientId: string; clientSecret: string }> {
  const { data } = await requestJson(`${instanceBase(instanceUrl)}/api/v1/apps`, {
    method: 'POST',
    signal,
    json: {
      client_name: app.clientName,
      redirect_uris: [app.redirectUri],
      scopes: MASTODON_SCOPES.join(' '),
      website: app.website,
    },
  });
  const registered = ZApp.parse(data);
  return { clientId: registered.client_id, clientSecret: registered.client_secret };
}

export function mastodonAuthorizeUrl(
  instanceUrl: string,
  flow: { clientId: string; redirectUri: string; state: string; codeChallenge: string },
): string {
  const url = new URL(`${instanceBase(instanceUrl)}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: flow.clientId,
    redirect_uri: flow.redirectUri,
    scope: MASTODON_SCOPES.join(' '),
    state: flow.state,
    code_challenge: flow.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

export async function exchangeMastodonCode(
  instanceUrl: string,
  exchange: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    code: string;
    codeVerifier: string;
  },
  signal?: AbortSignal,
): Promise<ProviderCredentials> {
  const { data } = await requestJson(`${instanceBase(instanceUrl)}/oauth/token`, {
    ...form({
      grant_type: 'authorization_code',
      code: exchange.code,
      client_id: exchange.clientId,
      client_secret: exchange.clientSecret,
      redirect_uri: exchange.redirectUri,
      code_verifier: exchange.codeVerifier,
    }),
    signal,
  });
  return { accessToken: ZToken.parse(data).access_token };
}

/** At disconnect: the token stops working at once (`POST /oauth/revoke`). */
export async function revokeMastodonToken(
  instanceUrl: string,
  revoke: { clientId: string; clientSecret: string; token: string },
  signal?: AbortSignal,
): Promise<void> {
  await requestJson(`${instanceBase(instanceUrl)}/oauth/revoke`, {
    ...form({
      client_id: revoke.clientId,
      client_secret: revoke.clientSecret,
      token: revoke.token,
    }),
    signal,
  });
}
