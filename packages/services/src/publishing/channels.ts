import type { Principal } from '@chorus/auth';
import {
  and,
  channels,
  eq,
  field,
  inArray,
  integrationConnections,
  notInArray,
  qualified,
  retiredChannels,
  sql,
  type Db,
  type RowOf,
} from '@chorus/db';
import {
  NETWORK_LIMITS,
  type Channel,
  type ListChannelsQuery,
  type Network,
  type NetworkLimits,
} from '@chorus/validators';
import { newId } from '../shared/ids';
import { sealChannelCredentials } from './credentials';
import { networkLink } from './links';
import { readTablePage } from '../shared/pagination';
import type { Tx } from '../posts/tx';
import type { DiscoveredChannel } from './provider';

/** The network's limits with the channel's own over them. */
export const channelLimits = (network: Network, own: Record<string, unknown> | null) =>
  ({ ...NETWORK_LIMITS[network], ...(own ?? {}) }) as NetworkLimits;

/**
 * A channel's columns the API shows, as the row reader gives them, with its connection's
 * status: a subquery, as the connection is always there (a channel goes with it, a foreign key
 * `on delete cascade`).
 */
const channelFields = {
  id: field.column(channels.id),
  integrationId: field.column(channels.integrationId),
  name: field.column(channels.name),
  handle: field.column(channels.handle),
  avatarUrl: field.column(channels.avatarUrl),
  kind: field.column(channels.kind),
  limits: field.column(channels.limits),
  createdAt: field.timestamp(channels.createdAt),
  connectionStatus: field.sql(
    sql<
      Channel['connectionStatus']
    >`(select ${integrationConnections.status} from ${integrationConnections} where ${integrationConnections.accountId} = ${qualified(channels.accountId)} and ${integrationConnections.integrationId} = ${qualified(channels.integrationId)})`,
  ),
};

export const toChannel = (row: RowOf<typeof channelFields>): Channel => ({
  id: row.id,
  integrationId: row.integrationId as Network,
  name: row.name,
  handle: row.handle,
  avatarUrl: row.avatarUrl,
  kind: row.kind,
  limits: channelLimits(row.integrationId as Network, row.limits),
  connectionStatus: row.connectionStatus,
  createdAt: row.createdAt,
});

/** A connection's channels (an account's, on one integration). */
const connectionChannels = (accountId: string, integrationId: string) =>
  and(eq(channels.accountId, accountId), eq(channels.integrationId, integrationId));

/**
 * Deletes a connection's channels, but those whose external ids it is told to keep, and keeps
 * each one's id in `retired_channels`, in the caller's transaction, for `saveDiscoveredChannels`
 * to give back when the account discovers the channel again (docs/publishing.md, Channels): the
 * targets that hold the id are then that channel's again.
 */
export async function retireChannels(
  tx: Tx,
  opts: { accountId: string; integrationId: string; keep?: string[] },
) {
  const ofConnection = connectionChannels(opts.accountId, opts.integrationId);
  const keep = opts.keep ?? [];
  const gone = await tx
    .delete(channels)
    .where(
      keep.length > 0 ? and(ofConnection, notInArray(channels.externalId, keep)) : ofConnection,
    )
    .returning({
      accountId: channels.accountId,
      integrationId: channels.integrationId,
      externalId: channels.externalId,
      channelId: channels.id,
    });
  if (gone.length === 0) return;
  await tx
    .insert(retiredChannels)
    .values(gone)
    .onConflictDoUpdate({
      target: [
        retiredChannels.accountId,
        retiredChannels.integrationId,
        retiredChannels.externalId,
      ],
      // Only a race leaves an older row here: the id targets were last given is the one to keep.
      set: { channelId: sql`excluded.channel_id`, retiredAt: sql`now()` },
    });
}

/**
 * Makes the connection's channels exactly the discovered ones, in the connect's transaction:
 * upserted by (account, integration, external id), so a reconnect keeps each channel's id and
 * the targets pointing at it; a channel no longer discovered (a Page taken out of the grant)
 * is retired, and its targets fail with `channel_unavailable` until it is discovered again, with
 * the id it had (so does a channel of a connection disconnected and connected again).
 */
export async function saveDiscoveredChannels(
  tx: Tx,
  opts: { accountId: string; integrationId: string; discovered: DiscoveredChannel[] },
) {
  const { accountId, integrationId, discovered } = opts;
  const ofConnection = connectionChannels(accountId, integrationId);
  const externalIds = discovered.map((channel) => channel.externalId);
  await retireChannels(tx, { accountId, integrationId, keep: externalIds });
  // Ids first: a channel's credentials are sealed bound to its id, kept across reconnects.
  const known = new Map(
    (
      await tx
        .select({ id: channels.id, externalId: channels.externalId })
        .from(channels)
        .where(ofConnection)
    ).map((row) => [row.externalId, row.id]),
  );
  const back = externalIds.filter((externalId) => !known.has(externalId));
  if (back.length > 0) {
    // The account's own retired ids only: the key holds the account.
    const restored = await tx
      .delete(retiredChannels)
      .where(
        and(
          eq(retiredChannels.accountId, accountId),
          eq(retiredChannels.integrationId, integrationId),
          inArray(retiredChannels.externalId, back),
        ),
      )
      .returning({ id: retiredChannels.channelId, externalId: retiredChannels.externalId });
    for (const row of restored) known.set(row.externalId, row.id);
  }
  for (const found of discovered) {
    const id = known.get(found.externalId) ?? newId('chn');
    // Name and handle as discovery keeps them: clean lines of a sensible length (discover.ts).
    const values = {
      kind: found.kind,
      name: found.name,
      handle: found.handle,
      // Shown as an image by the dashboard and any client: an http(s) URL or nothing.
      avatarUrl: networkLink(found.avatarUrl, { integrationId, externalId: found.externalId }),
      credentials: found.credentials
        ? sealChannelCredentials({ accountId, id }, found.credentials)
        : null,
      limits: found.limits ?? null,
    };
    await tx
      .insert(channels)
      .values({ id, accountId, integrationId, externalId: found.externalId, ...values })
      .onConflictDoUpdate({
        target: [channels.accountId, channels.integrationId, channels.externalId],
        set: values,
      });
  }
}

/** The account's channels, newest first, each with its connection's status. */
export async function listChannels(opts: {
  db: Db;
  principal: Principal;
  query: ListChannelsQuery;
}) {
  const { db, principal, query } = opts;
  const scope = eq(channels.accountId, principal.accountId);
  const where = and(
    scope,
    query.integrationId ? eq(channels.integrationId, query.integrationId) : undefined,
  );
  return readTablePage({
    db,
    request: query,
    order: { table: channels, id: channels.id, by: channels.createdAt, direction: 'desc', scope },
    where,
    fields: channelFields,
    items: (rows) => rows.map(toChannel),
  });
}
