import type { PostStatus } from '@chorus/validators';
import { AppError } from '../shared/errors';

/**
 * The post's status machine, as data: from each status, the statuses a post may move to. The
 * service reads it; the dashboard reads it to offer only allowed changes. Conditions (a future
 * `scheduledAt`, `publishedAt` set now) live in `create.ts` and `update.ts`; who may make a change
 * lives with it.
 */
export const POST_TRANSITIONS: Readonly<Record<PostStatus, readonly PostStatus[]>> = {
  draft: ['pending_approval', 'scheduled', 'published'],
  // Back to draft: withdrawn by its author, or rejected by an admin (with a comment).
  pending_approval: ['draft', 'scheduled', 'published'],
  // Archiving a scheduled post stops it repeating: only a recurring series (see SERIES_ONLY).
  scheduled: ['draft', 'published', 'archived'],
  // Only the publishing engine moves a post out of `publishing` (to published or failed).
  publishing: [],
  published: ['archived'],
  // `failed → publishing` is `POST …/retry`, not a change of status a client asks for.
  failed: ['draft', 'archived'],
  archived: ['draft'],
};

/**
 * Changes of the table that only their own endpoint makes: a status asked for in a create or
 * update body cannot submit a post for approval or approve it, so that each of these leaves
 * its own event and goes through its own role check.
 */
export const TRANSITION_ACTIONS: Readonly<
  Partial<Record<PostStatus, Partial<Record<PostStatus, string>>>>
> = {
  draft: { pending_approval: 'submit' },
  pending_approval: { scheduled: 'approve', published: 'approve' },
};

/**
 * Changes of the table that only a recurring series makes, and the one a series never makes:
 * archiving stops a series (a one-off scheduled post is unscheduled instead); a series
 * publishes copies at its occurrences, never itself by hand.
 */
export const SERIES_ONLY: Readonly<Partial<Record<PostStatus, readonly PostStatus[]>>> = {
  scheduled: ['archived'],
};
const NEVER_A_SERIES: readonly PostStatus[] = ['published'];

/**
 * The statuses a create or update body may ask for, from `from`: the table without the
 * actions, and without the changes a post that is (`recurring`) or is not a series cannot make.
 */
export function statusChangesOf(from: PostStatus, recurring = false): PostStatus[] {
  const actions = TRANSITION_ACTIONS[from] ?? {};
  const seriesOnly = SERIES_ONLY[from] ?? [];
  return POST_TRANSITIONS[from].filter(
    (to) =>
      actions[to] === undefined &&
      (recurring ? !NEVER_A_SERIES.includes(to) : !seriesOnly.includes(to)),
  );
}

/** 409 for a change of status that is not allowed from `from`; `why` replaces the default. */
export const refusedTransition = (
  from: PostStatus,
  to: PostStatus,
  why?: string,
  recurring = false,
) => {
  const allowed = statusChangesOf(from, recurring);
  return new AppError(
    'invalid_status_transition',
    why ?? `A ${from} post cannot become ${to}; allowed: ${allowed.join(', ') || 'none'}.`,
    { currentStatus: from, requestedStatus: to, allowedStatuses: allowed },
  );
};

/** Why a change is refused, when the table has it but not for this post. */
function whyRefused(from: PostStatus, to: PostStatus, recurring: boolean) {
  const action = TRANSITION_ACTIONS[from]?.[to];
  if (action) return `A ${from} post becomes ${to} through POST /api/content/posts/{id}/${action}.`;
  if (recurring && NEVER_A_SERIES.includes(to)) {
    return 'A recurring post publishes a copy at each occurrence; set recurrence to null to publish it once.';
  }
  if (!recurring && SERIES_ONLY[from]?.includes(to)) {
    return `Only a recurring ${from} post can become ${to} (it stops the series); unschedule this one instead.`;
  }
  return undefined;
}

/**
 * Refuses a change of status that a create or update body may not ask for, for a post that
 * is (`recurring`) or is not a series; staying in a status is no change. A change that is an
 * action's names its endpoint.
 */
export function assertTransition(from: PostStatus, to: PostStatus, recurring = false) {
  if (from === to) return;
  if (statusChangesOf(from, recurring).includes(to)) return;
  throw refusedTransition(from, to, whyRefused(from, to, recurring), recurring);
}
