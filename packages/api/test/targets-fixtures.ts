import { channels, integrationConnections, media, posts, postTargets, eq } from '@chorus/db';
import { newId } from '@chorus/services';
import type { Network } from '@chorus/validators';
import { expect } from 'vitest';
import type { Harness } from './harness';
import { createPost } from './posts-fixtures';

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

/** A target as a post's answer shows it (the fields these tests read). */
export type TargetAnswer = {
  id: string;
  channelId: string;
  status: string;
  url: string | null;
  content: string | null;
  mediaIds: string[] | null;
};

/**
 * The locked targets' probe post: published to Mastodon, X unconfirmed after a dropped
 * connection, the post failed and then moved back to draft (allowed: to edit it, or keep it).
 * `post` adds to the create body, `mastodon` to the Mastodon target.
 */
export async function wentOutTo(
  h: Harness,
  on: { mastodon: string; x: string },
  extra: { post?: Record<string, unknown>; mastodon?: Record<string, unknown> } = {},
) {
  const post = await createPost(h, {
    title: 'Went out',
    content: 'Hello',
    status: 'published',
    ...extra.post,
    targets: [{ channelId: on.mastodon, ...extra.mastodon }, { channelId: on.x }],
  });
  const [sent = { id: '' }, maybe = { id: '' }] = post.targets as TargetAnswer[];
  await setTarget(h, sent.id, {
    status: 'published',
    attempts: 1,
    externalId: '110',
    url: 'https://mastodon.example/@me/110',
    publishedAt: new Date(),
  });
  await setTarget(h, maybe.id, {
    status: 'unconfirmed',
    attempts: 1,
    error: { code: 'unconfirmed', message: 'The connection closed.', retryable: false },
  });
  await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));
  const draft = await h.call('PUT', `/api/content/posts/${post.id}`, {
    body: { status: 'draft' },
  });
  expect(draft.status).toBe(200);
  return {
    id: post.id,
    sent: sent.id,
    maybe: maybe.id,
    targets: draft.json.data.targets as TargetAnswer[],
  };
}
