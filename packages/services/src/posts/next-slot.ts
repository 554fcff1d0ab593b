import { eq, postTargets } from '@chorus/db';
import type { CreatePostInput, UpdatePostInput } from '@chorus/validators';
import { nextFreeSlot } from '../publishing/slots';
import { invalid } from './rules';
import { assertTargetList } from './targets';
import { channelsToSend } from './to-send';
import type { Tx } from './tx';

/**
 * `schedule: "next_slot"` as the rest of the write reads it: status `scheduled` at the earliest
 * free slot of the post's channels (its new targets, else its current ones). Other inputs
 * pass through unchanged.
 */
export async function withNextSlot<T extends CreatePostInput | UpdatePostInput>(
  tx: Tx,
  input: T,
  post: { accountId: string; id?: string; recurrence?: string | null },
  now: Date,
): Promise<T> {
  if (input.schedule !== 'next_slot') return input;
  if (input.scheduledAt != null) {
    throw invalid('schedule', 'Give scheduledAt or schedule: "next_slot", not both.');
  }
  // Left out, the status is the slot's to set (a create's default of draft does not apply).
  const asked = input.status;
  if (asked !== undefined && asked !== 'scheduled') {
    throw invalid('schedule', `schedule: "next_slot" schedules the post; status ${asked} cannot.`);
  }
  const existing = post.id
    ? await tx.select().from(postTargets).where(eq(postTargets.postId, post.id))
    : [];
  // New targets are checked first, as replaceTargets checks them: an unknown or another
  // account's channel is refused naming its target, as without `schedule`, not as a channel
  // without slots; a locked target dropped or changed is 409 `target_locked`.
  if (input.targets) await assertTargetList(tx, post, existing, input.targets);
  // Only the targets that will be sent take a slot: a locked one is never sent again, whether
  // its channel is still connected or gone since (docs/posting-slots.md).
  const targets = input.targets ?? existing;
  const channelIds = channelsToSend(
    targets.map((target) => target.channelId),
    existing,
  );
  const at = await nextFreeSlot(tx, {
    accountId: post.accountId,
    channelIds,
    sentAlready: targets.length > 0 && channelIds.length === 0,
    postId: post.id,
    // A series takes a slot free at each of its occurrences: the rule given, else the post's.
    recurrence: input.recurrence === undefined ? post.recurrence : input.recurrence,
    now,
  });
  return { ...input, status: 'scheduled', scheduledAt: at.toISOString() };
}
