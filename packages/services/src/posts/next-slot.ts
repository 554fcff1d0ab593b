import { eq, postTargets } from '@chorus/db';
import type { CreatePostInput, UpdatePostInput } from '@chorus/validators';
import { nextFreeSlot } from '../publishing/slots';
import { invalid } from './rules';
import { assertOwnTargets } from './targets';
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
  // New targets are checked first: an unknown or another account's channel is refused naming
  // its target, as without `schedule`, not as a channel without slots.
  if (input.targets) await assertOwnTargets(tx, post, input.targets);
  const channelIds = input.targets
    ? input.targets.map((target) => target.channelId)
    : post.id
      ? (
          await tx
            .select({ channelId: postTargets.channelId })
            .from(postTargets)
            .where(eq(postTargets.postId, post.id))
        ).map((row) => row.channelId)
      : [];
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
