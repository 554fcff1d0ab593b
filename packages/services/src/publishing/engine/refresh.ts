import { and, channels, eq, integrationConnections, sql, type Db } from '@chorus/db';
import type { Network } from '@chorus/validators';
import {
  connectionCredentials,
  publishingCredentials,
  storeRefreshedCredentials,
  type CredentialHome,
} from '../credentials';
import type { Provider, ProviderCredentials } from '../provider';
import { providerContext } from './settings';

type ChannelRow = typeof channels.$inferSelect;
type ConnectionRow = typeof integrationConnections.$inferSelect;
type Env = Record<string, string | undefined>;

/** Asks the platform for new credentials; throws its refusal. */
export type Refresh = (credentials: ProviderCredentials) => Promise<ProviderCredentials>;

/** Credentials to refresh: where they live, what they were when read, and what renews them. */
export type RefreshSubject = {
  connection: ConnectionRow;
  credentials: ProviderCredentials;
  refresh: Refresh;
} & ({ source: 'channel'; channel: ChannelRow } | { source: 'connection' });

/** A publishing network's refresh, through its provider (Meta trades tokens, Bluesky opens a session). */
export const networkRefresh =
  (network: Network, provider: Provider, env?: Env): Refresh =>
  (credentials) =>
    provider.refresh(credentials, providerContext(network, credentials, env));

/**
 * New credentials, stored sealed where the old ones were: the one refresh routine, for the
 * engine's expired token and the periodic job alike, of a channel's or a connection's
 * credentials. One refresh per credentials at a time, across workers (an advisory lock held
 * over the platform's call): X and others rotate the refresh token, so two refreshes with the
 * same one would see the second refused as if the grant were revoked. A refresh that finds the
 * credentials already changed by another worker takes those instead of refreshing again.
 * Throws the platform's refusal.
 */
export async function refreshedCredentials(
  opts: { db: Db },
  subject: RefreshSubject,
): Promise<ProviderCredentials> {
  const { connection } = subject;
  const key =
    subject.source === 'channel'
      ? `publishing-credentials:channel:${subject.channel.id}`
      : `publishing-credentials:${connection.accountId}:${connection.integrationId}`;
  return opts.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    // A row deleted meanwhile keeps the one read before: the refresh's write then changes nothing.
    const [currentConnection = connection] = await tx
      .select()
      .from(integrationConnections)
      .where(
        and(
          eq(integrationConnections.accountId, connection.accountId),
          eq(integrationConnections.integrationId, connection.integrationId),
        ),
      )
      .limit(1);
    let home: CredentialHome;
    let current: ProviderCredentials | null;
    if (subject.source === 'channel') {
      const [channel = subject.channel] = await tx
        .select()
        .from(channels)
        .where(eq(channels.id, subject.channel.id))
        .limit(1);
      home = { source: 'channel', channel };
      current = publishingCredentials(channel, currentConnection)?.credentials ?? null;
    } else {
      home = { source: 'connection', connection: currentConnection };
      current = connectionCredentials(currentConnection);
    }
    if (current && current.accessToken !== subject.credentials.accessToken) return current;
    const fresh = await subject.refresh(current ?? subject.credentials);
    await storeRefreshedCredentials(tx, home, fresh);
    return fresh;
  });
}
