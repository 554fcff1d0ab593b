import { and, channels, eq, integrationConnections } from '@chorus/db';
import {
  readCredentials,
  sealConnectionCredentials,
  type Credentials,
} from '../integrations/connections';
import { seal, unseal } from '../integrations/encryption';
import type { Tx } from '../posts/tx';
import type { ProviderCredentials } from './provider';

type ChannelRow = typeof channels.$inferSelect;
type ConnectionRow = typeof integrationConnections.$inferSelect;

/**
 * A channel's credentials and the connection's, as the engine reads and writes them (the one
 * place): a channel's own (a Page token) win over its connection's. Both are AES-256-GCM
 * sealed, bound to their row, so a ciphertext copied into another row does not decrypt.
 */

const channelContext = (accountId: string, channelId: string) =>
  `channel-credentials:${accountId}:${channelId}`;

/** Encrypts a channel's own credentials for its row (at connect, and after a refresh). */
export const sealChannelCredentials = (
  channel: Pick<ChannelRow, 'accountId' | 'id'>,
  credentials: ProviderCredentials,
) => seal(JSON.stringify(credentials), channelContext(channel.accountId, channel.id));

/** Where a target's credentials came from: a refresh is written back there. */
export type CredentialSource = 'channel' | 'connection';

export interface PublishingCredentials {
  credentials: ProviderCredentials;
  source: CredentialSource;
}

/**
 * A connection's credentials as the engine and the token refresh use them: the expiry is the
 * row's `tokenExpiresAt`, not anything inside the sealed JSON (an `expiresIn` kept there from the
 * code exchange says nothing once time has passed). Null when they cannot be read.
 */
export function connectionCredentials(row: ConnectionRow): ProviderCredentials | null {
  const stored = readCredentials(row);
  if (!stored) return null;
  const expiresAt = row.tokenExpiresAt?.toISOString();
  return {
    accessToken: stored.kind === 'oauth2' ? stored.accessToken : stored.apiKey,
    ...(stored.refreshToken ? { refreshToken: stored.refreshToken } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    ...(stored.extra ? { extra: stored.extra } : {}),
  };
}

/**
 * The credentials to publish to `channel` with: the channel's own, else its connection's;
 * null when neither can be read (the encryption key changed, the row was tampered with).
 */
export function publishingCredentials(
  channel: ChannelRow,
  connection: ConnectionRow,
): PublishingCredentials | null {
  if (channel.credentials) {
    try {
      const credentials = JSON.parse(
        unseal(channel.credentials, channelContext(channel.accountId, channel.id)),
      ) as ProviderCredentials;
      return { credentials, source: 'channel' };
    } catch {
      return null;
    }
  }
  const credentials = connectionCredentials(connection);
  return credentials ? { credentials, source: 'connection' } : null;
}

/** Where credentials live, so a refresh is written back there: a channel's own, or a connection's. */
export type CredentialHome =
  | { source: 'channel'; channel: Pick<ChannelRow, 'accountId' | 'id'> }
  | { source: 'connection'; connection: ConnectionRow };

/**
 * Stores refreshed credentials where they came from, sealed: every token the platform sent,
 * the refresh token included (X rotates it at every refresh: the old one no longer works).
 */
export async function storeRefreshedCredentials(
  tx: Tx,
  home: CredentialHome,
  credentials: ProviderCredentials,
): Promise<void> {
  if (home.source === 'channel') {
    const { channel } = home;
    await tx
      .update(channels)
      .set({ credentials: sealChannelCredentials(channel, credentials) })
      .where(eq(channels.id, channel.id));
    return;
  }
  const { connection } = home;
  const before = readCredentials(connection);
  const common = {
    ...(credentials.refreshToken ? { refreshToken: credentials.refreshToken } : {}),
    ...(credentials.extra ? { extra: credentials.extra } : {}),
  };
  const stored: Credentials =
    before?.kind === 'api_key'
      ? { kind: 'api_key', apiKey: credentials.accessToken, ...common }
      : {
          kind: 'oauth2',
          accessToken: credentials.accessToken,
          ...(before?.kind === 'oauth2' && before.scopes ? { scopes: before.scopes } : {}),
          ...common,
        };
  await tx
    .update(integrationConnections)
    .set({
      credentials: sealConnectionCredentials(
        connection.accountId,
        connection.integrationId,
        stored,
      ),
      tokenExpiresAt: credentials.expiresAt ? new Date(credentials.expiresAt) : null,
    })
    .where(
      and(
        eq(integrationConnections.accountId, connection.accountId),
        eq(integrationConnections.integrationId, connection.integrationId),
      ),
    );
}
