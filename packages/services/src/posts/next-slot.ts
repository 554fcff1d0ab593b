import { and, channels, eq, inArray, postTargets } from '@chorus/db';
import { isLockedTarget, type CreatePostInput, type UpdatePostInput } from '@chorus/validators';
import { nextFreeSlot } from '../publishing/slots';
import type { TargetRow } from './records';
import { invalid } from './rules';
import { assertTargetList } from './targets';
import type { Tx } from './tx';

/**
 * The channels whose slots the post takes: those of its targets (`targets`, the new list or the
 * post's), less a locked target's channel that is gone since it went out. The target stays
 * (docs/publishing.md, Targets) and is not sent again, but its channel, and so its slots, are
 * gone: counted, it would leave the others no slot in common. Any other target's channel is
 * checked (assertTargetList), or counts as a channel without slots.
 */
async function slotChannels(
  tx: Tx,
  accountId: string,
  targets: { channelId: string }[],
  existing: TargetRow[],
) {
  const locked = new Set(existing.filter(isLockedTarget).map((row) => row.channelId));
  const asked = targets.map((target) => target.channelId);
  const lockedAsked = asked.filter((id) => locked.has(id));
  if (lockedAsked.length === 0) return asked;
  const live = new Set(
    (
      await tx
        .select({ id: channels.id })
        .from(channels)
        .where(and(eq(channels.accountId, accountId), inArray(channels.id, lockedAsked)))
    ).map((row) => row.id),
  );
  return asked.filter((id) => !locked.has(id) || live.has(id));
}

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
  const channelIds = await slotChannels(tx, post.accountId, input.targets ?? existing, existing);
  const at = await nextFreeSlot(tx, {
    accountId: post.accountId,
    channelIds,
    postId: post.id,
    // A series takes a slot free at each of its occurrences: the rule given, else the post's.
    recurrence: input.recurrence === undefined ? post.recurrence : input.recurrence,
    now,
  });
  return { ...input, status: 'scheduled', scheduledAt: at.toISOString() };
}
