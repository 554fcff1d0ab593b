import type { Principal } from '@chorus/auth';
import { and, desc, eq, integrationConnections, type Db } from '@chorus/db';
import type { ConnectedIntegration, ConnectionMeta, DisconnectResult } from '@chorus/validators';
import { notFound } from '../shared/errors';
import { recordEvent } from '../events/record';
import { retireChannels, saveDiscoveredChannels } from '../publishing/channels';
import type { DiscoveredChannel } from '../publishing/provider';
import type { TokenSet } from './oauth-client';
import { revokeTokens } from './oauth-client';
import { findEntry } from './catalogue';
import { seal, unseal } from './encryption';
import { revokeMastodonGrant } from './mastodon-app';
import { providerSettings } from './settings';

type ConnectionRow = typeof integrationConnections.$inferSelect;

/**
 * What is kept, encrypted, in `credentials`. `extra` holds what a network needs besides the
 * tokens (publishing: a Bluesky DID, a Mastodon instance), as `ProviderCredentials.extra`.
 */
export type Credentials = (
  ({ kind: 'oauth2' } & TokenSet) | { kind: 'api_key'; apiKey: string; refreshToken?: string }
) & { extra?: Record<string, string> };

/** Binds a ciphertext to its row, so it cannot be replayed into another account's. */
const credentialContext = (accountId: string, integrationId: string) =>
  `integration-credentials:${accountId}:${integrationId}`;

/** Encrypts a connection's credentials for its row (connect, and the engine's token refresh). */
export const sealConnectionCredentials = (
  accountId: string,
  integrationId: string,
  credentials: Credentials,
) => seal(JSON.stringify(credentials), credentialContext(accountId, integrationId));

export const toConnectedIntegration = (row: ConnectionRow): ConnectedIntegration => ({
  integrationId: row.integrationId,
  status: row.status,
  connectedAt: row.connectedAt.toISOString(),
  lastSyncAt: row.lastSyncAt.toISOString(),
  // Connections stored before docs/integrations.md made it a string may hold null: name the platform.
  meta: {
    accountName: row.meta.accountName ?? findEntry(row.integrationId)?.name ?? row.integrationId,
    pages: row.meta.pages,
  },
});

/**
 * Creates the account's connection, or replaces it: one connection per integration. A social
 * network's channels, discovered before, are saved in the same transaction (docs/publishing.md).
 * The row is updated in place on reconnect, never deleted: its channels hang on it.
 */
export async function storeConnection(opts: {
  db: Db;
  accountId: string;
  userId: string;
  integrationId: string;
  credentials: Credentials;
  scopes: string[];
  meta: ConnectionMeta;
  now: Date;
  /** The channels the network listed for these credentials; absent for non-publishing platforms. */
  discovered?: DiscoveredChannel[];
}): Promise<ConnectedIntegration> {
  const { db, accountId, integrationId, credentials, now } = opts;
  const expiresIn = credentials.kind === 'oauth2' ? credentials.expiresIn : undefined;
  const values = {
    connectedBy: opts.userId,
    credentials: sealConnectionCredentials(accountId, integrationId, credentials),
    scopes: opts.scopes,
    tokenExpiresAt: expiresIn ? new Date(now.getTime() + expiresIn * 1000) : null,
    meta: opts.meta,
    // Connecting again is how a connection that `needs_reconnect` recovers.
    status: 'connected' as const,
    connectedAt: now,
    lastSyncAt: now,
  };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(integrationConnections)
      .values({ accountId, integrationId, ...values })
      .onConflictDoUpdate({
        target: [integrationConnections.accountId, integrationConnections.integrationId],
        set: values,
      })
      .returning();
    if (!row) throw new Error('upsert returned no row');
    if (opts.discovered) {
      await saveDiscoveredChannels(tx, { accountId, integrationId, discovered: opts.discovered });
    }
    const connected = toConnectedIntegration(row);
    await recordEvent({ tx, accountId, type: 'integration.connected', object: connected });
    return connected;
  });
}

export async function listConnectedIntegrations(opts: { db: Db; principal: Principal }) {
  const rows = await opts.db
    .select()
    .from(integrationConnections)
    .where(eq(integrationConnections.accountId, opts.principal.accountId))
    .orderBy(desc(integrationConnections.connectedAt), desc(integrationConnections.integrationId));
  return { data: rows.map(toConnectedIntegration) };
}

/**
 * Disconnects: a best-effort revocation at the third party, then the stored credentials are
 * deleted whatever the third party said (docs/integrations.md), and the channels with them,
 * retired so that connecting the same network account again gives them their ids back
 * (docs/publishing.md, Channels).
 */
export async function disconnectIntegration(opts: {
  db: Db;
  principal: Principal;
  integrationId: string;
}): Promise<DisconnectResult> {
  const { db, principal, integrationId } = opts;
  const where = and(
    eq(integrationConnections.accountId, principal.accountId),
    eq(integrationConnections.integrationId, integrationId),
  );
  const [row] = await db.select().from(integrationConnections).where(where).limit(1);
  if (!row) throw notFound('Integration connection');
  await revokeGrant(db, integrationId, readCredentials(row));
  await db.transaction(async (tx) => {
    // Before the connection, whose deletion would take them without a trace (on delete cascade).
    await retireChannels(tx, { accountId: principal.accountId, integrationId });
    const [deleted] = await tx.delete(integrationConnections).where(where).returning();
    // Disconnected meanwhile by someone else: theirs was the change, and the event.
    if (!deleted) return;
    await recordEvent({
      tx,
      accountId: principal.accountId,
      type: 'integration.disconnected',
      object: { ...toConnectedIntegration(deleted), status: 'disconnected' },
    });
  });
  return { status: 'disconnected', provider: integrationId };
}

/** Revokes a connection's OAuth grant at the third party, best effort. */
async function revokeGrant(db: Db, integrationId: string, credentials: Credentials | null) {
  if (credentials?.kind !== 'oauth2') return;
  if (integrationId === 'mastodon') return void (await revokeMastodonGrant(db, credentials));
  // An entry since removed from the catalogue can still be disconnected, without revocation.
  const entry = findEntry(integrationId);
  if (entry?.authMethod === 'oauth2')
    await revokeTokens(entry, providerSettings(entry), credentials);
}

/** The decrypted credentials, or null when they cannot be read (e.g. the key was changed). */
export function readCredentials(row: ConnectionRow): Credentials | null {
  try {
    const context = credentialContext(row.accountId, row.integrationId);
    return JSON.parse(unseal(row.credentials, context)) as Credentials;
  } catch {
    return null;
  }
}
