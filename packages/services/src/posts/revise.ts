import { channels, eq, inArray, posts } from '@chorus/db';
import { networkOf } from '../publishing/engine/settings';
import { partSpecs, type PartSpec } from '../publishing/parts';
import { PROVIDERS } from '../publishing/providers';
import { mediaIdsOf, type TargetRow } from './records';
import type { Tx } from './tx';

/** A target's fields that say what it sends, as stored. */
type Sendable = Pick<TargetRow, 'content' | 'mediaIds' | 'firstComment' | 'thread'>;

/** How many parts, from the first, send the same text and media before and after. */
function unchangedParts(before: PartSpec[], after: PartSpec[]): number {
  const key = (part: PartSpec | undefined) => JSON.stringify(part ?? null);
  let same = 0;
  while (same < before.length && key(before[same]) === key(after[same])) same++;
  return same;
}

/**
 * Revising the targets of a post whose own fields change (replaceTargets): the columns a
 * revised target gets (docs/publishing.md, Targets). Its `revision` moves on, and with it the
 * idempotency keys of whatever is sent next. What is still true at the network is kept: when
 * its first parts are unchanged (the head's text and media, then the thread's parts in order),
 * the provider keeps their live posts in `progress` (Provider.keepParts), and the next attempt
 * sends only what follows them (a later part, the first comment) under them, never the head
 * again. When the head's text or media change, nothing is kept: the new text starts a new post.
 * A target keeps its link to a live head that stays, and loses one to a head that does not.
 * Reads once what every revision needs: the post's own content and media (as they were before
 * this update: the targets falling back to them are revised for their change by followPostEdit)
 * and each channel's network.
 */
export async function targetReviser(tx: Tx, postId: string, channelIds: string[]) {
  const [post] = await tx
    .select({ content: posts.content })
    .from(posts)
    .where(eq(posts.id, postId));
  const sent = { content: post?.content, mediaIds: (await mediaIdsOf(tx, [postId])).get(postId) };
  const rows = await tx
    .select({ id: channels.id, integrationId: channels.integrationId })
    .from(channels)
    .where(inArray(channels.id, channelIds));
  const networks = new Map(rows.map((row) => [row.id, networkOf(row.integrationId)]));
  return (kept: TargetRow, next: Sendable) => {
    const network = networks.get(kept.channelId);
    const provider = network ? PROVIDERS[network] : undefined;
    const same = unchangedParts(partSpecs(kept, sent), partSpecs(next, sent));
    const progress = provider && same > 0 ? provider.keepParts(kept.progress, same) : {};
    const live = provider?.head(progress) !== undefined;
    return {
      progress,
      externalId: live ? kept.externalId : null,
      url: live ? kept.url : null,
      revision: kept.revision + 1,
    };
  };
}
