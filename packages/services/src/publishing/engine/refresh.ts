import { and, channels, eq, integrationConnections, sql, type Db } from '@chorus/db';
import type { Network } from '@chorus/validators';
import {
  publishingCredentials,
  storeRefreshedCredentials,
  type CredentialSource,
} from '../credentials';
import type { Provider, ProviderCredentials } from '../provider';
import { PROVIDERS } from '../providers';
import { markNeedsReconnect } from './claim';
import { networkOf, providerContext } from './settings';

type ChannelRow = typeof channels.$inferSelect;
type ConnectionRow = typeof integrationConnections.$inferSelect;

export interface RefreshSubject {
  channel: ChannelRow;
  connection: ConnectionRow;
  source: CredentialSource;
  credentials: ProviderCredentials;
  network: Network;
  provider: Provider;
}

/**
 * New credentials for a channel, stored sealed where the old ones were. One refresh per
 * credentials at a time, across workers (an advisory lock held over the network call): X and
 * others rotate the refresh token, so two refreshes with the same one would see the second
 * refused as if the grant were revoked. A refresh that finds the credentials already changed
 * by another worker takes those instead of refreshing again. Throws the network's refusal.
 */
export async function refreshedCredentials(
  opts: { db: Db; env?: Record<string, string | undefined> },
  subject: RefreshSubject,
): Promise<ProviderCredentials> {
  const { channel, connection, source, provider, network } = subject;
  const key =
    source === 'channel'
      ? `publishing-credentials:channel:${channel.id}`
      : `publishing-credentials:${connection.accountId}:${connection.integrationId}`;
  return opts.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    const [currentChannel] = await tx
      .select()
      .from(channels)
      .where(eq(channels.id, channel.id))
      .limit(1);
    const [currentConnection] = await tx
      .select()
      .from(integrationConnections)
      .where(
        and(
          eq(integrationConnections.accountId, connection.accountId),
          eq(integrationConnections.integrationId, connection.integrationId),
        ),
      )
      .limit(1);
    const current =
      currentChannel && currentConnection
        ? publishingCredentials(currentChannel, currentConnection)
        : null;
    if (current && current.credentials.accessToken !== subject.credentials.accessToken) {
      return current.credentials;
    }
    const base = current?.credentials ?? subject.credentials;
    const fresh = await provider.refresh(base, providerContext(network, base, opts.env));
    await storeRefreshedCredentials(tx, {
      channel: currentChannel ?? channel,
      connection: currentConnection ?? connection,
      source,
      credentials: fresh,
    });
    return fresh;
  });
}

/**
 * Refreshes, before they expire, the tokens of channels on connected networks whose access
 * token ends within `aheadMs` (the periodic job): publishing then rarely meets an expired
 * token. A refusal that means the grant is gone marks the connection `needs_reconnect`; other
 * failures wait for the next run. Returns how many credentials it refreshed.
 */
export async function refreshExpiringCredentials(opts: {
  db: Db;
  aheadMs: number;
  env?: Record<string, string | undefined>;
}): Promise<number> {
  const { db } = opts;
  const rows = await db
    .select({ channel: channels, connection: integrationConnections })
    .from(channels)
    .innerJoin(
      integrationConnections,
      and(
        eq(integrationConnections.accountId, channels.accountId),
        eq(integrationConnections.integrationId, channels.integrationId),
      ),
    )
    .where(eq(integrationConnections.status, 'connected'));
  const horizon = Date.now() + opts.aheadMs;
  const seen = new Set<string>();
  let refreshed = 0;
  for (const { channel, connection } of rows) {
    const network = networkOf(channel.integrationId);
    const provider = network ? PROVIDERS[network] : undefined;
    const found = publishingCredentials(channel, connection);
    if (!network || !provider || !found) continue;
    const key =
      found.source === 'channel'
        ? channel.id
        : `${connection.accountId}:${connection.integrationId}`;
    const expiresAt = found.credentials.expiresAt ? Date.parse(found.credentials.expiresAt) : NaN;
    if (seen.has(key) || !(expiresAt <= horizon)) continue;
    seen.add(key);
    try {
      await refreshedCredentials(opts, { channel, connection, network, provider, ...found });
      refreshed += 1;
    } catch (error) {
      if (provider.classify(error).class === 'revoked') {
        await db.transaction((tx) =>
          markNeedsReconnect(tx, connection.accountId, connection.integrationId),
        );
      }
    }
  }
  return refreshed;
}
