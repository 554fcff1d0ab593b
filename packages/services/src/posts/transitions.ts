import type { PostStatus } from '@chorus/validators';
import { AppError } from '../errors';

/**
 * The post's status machine, as data: from each status, the statuses a post may move to. The
 * service reads it; the dashboard reads it to offer only allowed changes. Conditions (a future
 * `scheduledAt`, `publishedAt` set now) live in `write.ts`; who may make a change lives with it.
 */
export const POST_TRANSITIONS: Readonly<Record<PostStatus, readonly PostStatus[]>> = {
  draft: ['pending_approval', 'scheduled', 'published'],
  // Back to draft: withdrawn by its author, or rejected by an admin (with a comment).
  pending_approval: ['draft', 'scheduled', 'published'],
  scheduled: ['draft', 'published'],
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

/** The statuses a create or update body may ask for, from `from`: the table without the actions. */
export function statusChangesOf(from: PostStatus): PostStatus[] {
  const actions = TRANSITION_ACTIONS[from] ?? {};
  return POST_TRANSITIONS[from].filter((to) => actions[to] === undefined);
}

/** 409 for a change of status that is not allowed from `from`; `why` replaces the default. */
export const refusedTransition = (from: PostStatus, to: PostStatus, why?: string) => {
  const allowed = statusChangesOf(from);
  return new AppError(
    'invalid_status_transition',
    why ?? `A ${from} post cannot become ${to}; allowed: ${allowed.join(', ') || 'none'}.`,
    { currentStatus: from, requestedStatus: to, allowedStatuses: allowed },
  );
};

/**
 * Refuses a change of status that a create or update body may not ask for; staying in a
 * status is no change. A change that is an action's names its endpoint.
 */
export function assertTransition(from: PostStatus, to: PostStatus) {
  if (from === to) return;
  if (statusChangesOf(from).includes(to)) return;
  const action = TRANSITION_ACTIONS[from]?.[to];
  throw refusedTransition(
    from,
    to,
    action && `A ${from} post becomes ${to} through POST /api/content/posts/{id}/${action}.`,
  );
}
