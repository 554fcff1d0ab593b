import { and, channels, eq, integrationConnections, lte, notInArray, type Db } from '@chorus/db';
import { cleanMessage, NETWORKS } from '@chorus/validators';
import { findEntry } from '../../integrations/catalogue';
import { GrantRefused, refreshOAuthCredentials } from '../../integrations/token-refresh';
import { connectionCredentials, publishingCredentials } from '../credentials';
import { secretsOf } from '../failure';
import { PROVIDERS } from '../providers';
import { markNeedsReconnect } from './claim';
import { networkRefresh, refreshedCredentials, type RefreshSubject } from './refresh';
import { networkOf, providerContext } from './settings';
import { warnOperator } from '../../shared/worker-log';

type Env = Record<string, string | undefined>;

/** Credentials the periodic job refreshes, and which failures of that refresh end the grant. */
interface Due {
  subject: RefreshSubject;
  refused(error: unknown): boolean;
  /** What a refusal's words must not show when logged: the credentials' and our app's secrets. */
  secrets: string[];
}

/**
 * The publishing networks' credentials whose access token ends by `horizon`, found through
 * the channels of connected connections: a channel's own (a Page token, whose expiry is inside
 * its sealed credentials) or, once per connection, the connection's. Each network's provider
 * refreshes its own and says which refusals mean the grant is gone.
 */
async function dueChannelCredentials(db: Db, horizon: Date, env?: Env): Promise<Due[]> {
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
  const seen = new Set<string>();
  const due: Due[] = [];
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
    if (seen.has(key) || !(expiresAt <= horizon.getTime())) continue;
    seen.add(key);
    due.push({
      subject: {
        ...found,
        channel,
        connection,
        refresh: networkRefresh(network, provider, env),
      },
      refused: (error) => provider.classify(error).class === 'revoked',
      secrets: secretsOf([found.credentials], providerContext(network, found.credentials, env)),
    });
  }
  return due;
}

/**
 * Connections of the OAuth platforms that do not publish (storage, design, and social
 * platforms without a provider) whose access token ends by `horizon`: renewed with the refresh
 * grant at the platform's token endpoint. Networks are dueChannelCredentials's, whose providers
 * know their own refresh. A connection whose platform gave no expiry (`tokenExpiresAt` null)
 * is never due; one whose credentials cannot be read (the encryption key changed) is skipped.
 */
async function dueConnectionCredentials(db: Db, horizon: Date, env?: Env): Promise<Due[]> {
  const rows = await db
    .select()
    .from(integrationConnections)
    .where(
      and(
        eq(integrationConnections.status, 'connected'),
        lte(integrationConnections.tokenExpiresAt, horizon),
        notInArray(integrationConnections.integrationId, [...NETWORKS]),
      ),
    );
  return rows.flatMap((connection): Due[] => {
    const entry = findEntry(connection.integrationId);
    const credentials = connectionCredentials(connection);
    if (entry?.authMethod !== 'oauth2' || !credentials) return [];
    return [
      {
        subject: {
          source: 'connection',
          connection,
          credentials,
          refresh: (current) => refreshOAuthCredentials(entry, current, env),
        },
        refused: (error) => error instanceof GrantRefused,
        secrets: secretsOf([credentials]),
      },
    ];
  });
}

/**
 * Refreshes, before they expire, every access token that ends within `aheadMs` (the periodic
 * job): the publishing networks' channels and connections, and the connections of every other
 * OAuth platform (Dropbox, Google Drive…), so that neither a publish nor a later use of a
 * connection meets an expired token. A refusal that means the grant is gone marks the
 * connection `needs_reconnect` (with its event); other failures wait for the next run.
 * Returns how many credentials it refreshed.
 */
export async function refreshExpiringCredentials(opts: {
  db: Db;
  aheadMs: number;
  env?: Env;
}): Promise<number> {
  const { db, env } = opts;
  const horizon = new Date(Date.now() + opts.aheadMs);
  const due = [
    ...(await dueChannelCredentials(db, horizon, env)),
    ...(await dueConnectionCredentials(db, horizon, env)),
  ];
  let refreshed = 0;
  for (const { subject, refused, secrets } of due) {
    try {
      await refreshedCredentials(opts, subject);
      refreshed += 1;
    } catch (error) {
      const { accountId, integrationId } = subject.connection;
      const gone = refused(error);
      // The account sees only needs_reconnect; a refresh that keeps failing is the operator's.
      warnOperator(gone ? 'token refresh refused' : 'token refresh failed', {
        accountId,
        integrationId,
        message: cleanMessage(error instanceof Error ? error.message : String(error), { secrets }),
      });
      if (gone) await db.transaction((tx) => markNeedsReconnect(tx, subject.connection));
    }
  }
  return refreshed;
}
