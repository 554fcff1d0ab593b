import { notInArray, postTargets } from '@chorus/db';
import { isLockedTarget, LOCKED_TARGET_STATUSES, type Target } from '@chorus/validators';

type Sent = Pick<Target, 'channelId' | 'status'>;

/**
 * The targets of a post that will be sent: all but its locked ones (published, unconfirmed),
 * which are never sent again (docs/publishing.md, Targets). Only these take part in what
 * sending decides: the posting slots a post takes and holds (docs/posting-slots.md) and the
 * targets a series' copy gets (docs/workflow.md#recurring-posts).
 */
export const targetsToSend = <T extends Sent>(rows: T[]) =>
  rows.filter((row) => !isLockedTarget(row));

/** The same rule in a query: a `post_targets` row that will be sent. */
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
