import { notInArray, postTargets } from '@chorus/db';
import { isLockedTarget, LOCKED_TARGET_STATUSES, type Target } from '@chorus/validators';

type Sent = Pick<Target, 'channelId' | 'status'>;

/**
 * A `post_targets` row that will be sent, in a query: any but a locked target (published,
 * unconfirmed), which is never sent again (docs/publishing.md, Targets). Only the targets to
 * send take part in what sending decides: the posting slots a post takes and holds
 * (docs/posting-slots.md).
 */
export const targetToSend = () => notInArray(postTargets.status, [...LOCKED_TARGET_STATUSES]);

/**
 * Of `channelIds` (a post's targets', a new list or the post's own), those its targets will be
 * sent to: less the channel of each of its locked targets (`existing`, the post's targets as
 * stored). A new list keeps every locked target as it is (assertTargetList), so a channel of
 * one is that target.
 */
export function channelsToSend(channelIds: string[], existing: Sent[]) {
  const locked = new Set(existing.filter(isLockedTarget).map((row) => row.channelId));
  return channelIds.filter((id) => !locked.has(id));
}
