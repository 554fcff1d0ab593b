import { channels, integrationConnections, media, postTargets, eq } from '@chorus/db';
import { newId } from '@chorus/services';
import type { Network } from '@chorus/validators';
import type { Harness } from './harness';

/**
 * A channel of the account on `network`, written as connecting would leave it (connecting for
 * real is channels.test.ts's business): the connection row, then the channel.
 */
export async function channelOf(
  h: Harness,
  accountId: string,
  network: Network,
  limits: Record<string, unknown> | null = null,
) {
  const now = new Date();
  await h.db
    .insert(integrationConnections)
    .values({
      accountId,
      integrationId: network,
      credentials: 'v1.unused',
      scopes: [],
      meta: { accountName: network, pages: [] },
      connectedAt: now,
      lastSyncAt: now,
    })
    .onConflictDoNothing();
  const id = newId('chn');
  await h.db.insert(channels).values({
    id,
    accountId,
    integrationId: network,
    externalId: id,
    kind: 'account',
    name: `${network} account`,
    handle: `@${network}`,
    limits,
  });
  return id;
}

/** A media record of the account with the given type and size. */
export async function mediaWith(h: Harness, accountId: string, mimeType: string, size: number) {
  const id = newId('med');
  await h.db.insert(media).values({
    id,
    accountId,
    filename: 'file',
    mimeType,
    size,
    sha256: '0'.repeat(64),
    storageKey: id,
  });
  return id;
}

/** Puts a target in a status as the engine would leave it. */
export async function setTarget(
  h: Harness,
  targetId: string,
  values: Partial<typeof postTargets.$inferInsert>,
) {
  await h.db.update(postTargets).set(values).where(eq(postTargets.id, targetId));
}

export const targetRow = async (h: Harness, targetId: string) =>
  (await h.db.select().from(postTargets).where(eq(postTargets.id, targetId)))[0];
