import type { PostStatus } from '@chorus/validators';
import { AppError } from '../errors';

/**
 * The status machine of decisions §10, as data: from each status, the statuses a post may
 * move to. The service reads it; the dashboard reads it to offer only allowed changes.
 * Conditions (a future `scheduledAt`, `publishedAt` set now) live in `write.ts`.
 */
export const POST_TRANSITIONS: Readonly<Record<PostStatus, readonly PostStatus[]>> = {
  draft: ['scheduled', 'published'],
  scheduled: ['draft', 'published'],
  // Only the publishing engine moves a post out of `publishing` (to published or failed).
  publishing: [],
  published: ['archived'],
  // `failed → publishing` is `POST …/retry`, not a change of status a client asks for.
  failed: ['draft', 'archived'],
  archived: ['draft'],
};

/** Refuses a change of status the table does not list; staying in a status is no change. */
export function assertTransition(from: PostStatus, to: PostStatus) {
  if (from === to) return;
  const allowed = POST_TRANSITIONS[from];
  if (allowed.includes(to)) return;
  throw new AppError(
    'invalid_status_transition',
    `A ${from} post cannot become ${to}; allowed: ${allowed.join(', ')}.`,
    { currentStatus: from, requestedStatus: to, allowedStatuses: [...allowed] },
  );
}
