import type { ProviderCredentials } from '../publishing/provider';
import type { OAuthEntry } from './catalogue';
import { refreshGrant } from './oauth-client';
import { configuredProvider } from './settings';

type Env = Record<string, string | undefined>;

/**
 * The platform will not renew this connection's access: it refused the refresh token
 * (`invalid_grant`: revoked, expired, issued to another client) or gave none. Only connecting
 * again helps, so the connection is marked `needs_reconnect`.
 */
export class GrantRefused extends Error {
  override readonly name = 'GrantRefused';
}

/**
 * New credentials for a connection of an OAuth platform that does not publish (Dropbox,
 * Google Drive, Canva…), from its refresh token. The new access token's expiry is counted from
 * the platform's answer. Throws GrantRefused when only a reconnection helps; any other error
 * (a 5xx, no answer, our client not configured) may pass, and the next visit tries again.
 */
export async function refreshOAuthCredentials(
  entry: OAuthEntry,
  credentials: ProviderCredentials,
  env: Env = process.env,
): Promise<ProviderCredentials> {
  const { refreshToken } = credentials;
  if (!refreshToken) {
    throw new GrantRefused(`${entry.name} gave this connection no refresh token.`);
  }
  const answer = await refreshGrant(entry, configuredProvider(entry, env), refreshToken);
  if (!answer.ok) {
    const message = `${entry.name} did not refresh the token: ${answer.error}.`;
    throw answer.refused ? new GrantRefused(message) : new Error(message);
  }
  const { tokens } = answer;
  return {
    accessToken: tokens.accessToken,
    // A platform that rotates answers a new refresh token and retires the one we sent; one
    // that does not (Dropbox, Google) answers none, and ours stays good.
    refreshToken: tokens.refreshToken ?? refreshToken,
    ...(tokens.expiresIn
      ? { expiresAt: new Date(Date.now() + tokens.expiresIn * 1000).toISOString() }
      : {}),
    ...(credentials.extra ? { extra: credentials.extra } : {}),
  };
}
