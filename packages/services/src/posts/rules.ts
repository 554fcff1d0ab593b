import type { Principal } from '@chorus/auth';
import { accounts, and, eq, inArray, media, postMedia } from '@chorus/db';
import { postBodyIssues, type EventType, type PostStatus } from '@chorus/validators';
import { AppError } from '../shared/errors';
import type { Reader } from './records';
import type { Tx } from './tx';

export const invalid = (path: string, message: string) =>
  new AppError('validation_error', message, { issues: [{ path, message }] });

/** `scheduled` needs a `scheduledAt` in the future (docs/posts-and-scheduler.md). */
export function requireFutureSchedule(scheduledAt: Date | null | undefined, now: Date) {
  if (!scheduledAt) throw invalid('scheduledAt', 'A scheduled post needs scheduledAt.');
  if (scheduledAt <= now) throw invalid('scheduledAt', 'scheduledAt must be in the future.');
  return scheduledAt;
}

/** Only scheduling sets a time: a scheduledAt sent with any other status is refused. */
export const scheduleWithoutStatus = () =>
  invalid('scheduledAt', "scheduledAt is set by scheduling: send it with status 'scheduled'.");

/**
 * The rules on a body's values together (`postBodyIssues`: no repeated medium or channel, a
 * thread's length): 400 on create and update; validate lists the same issues (docs/publishing.md).
 */
export function assertPostBody(body: Parameters<typeof postBodyIssues>[0]) {
  const issues = postBodyIssues(body);
  if (issues.length === 0) return;
  throw new AppError('validation_error', issues[0]?.message ?? 'The post is not valid.', {
    issues,
  });
}

/** Every id must be media of the caller's account; a foreign id is as unknown as a missing one. */
export async function assertOwnMedia(tx: Tx, principal: Principal, ids: string[]) {
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: media.id })
    .from(media)
    .where(and(inArray(media.id, ids), eq(media.accountId, principal.accountId)));
  const known = new Set(found.map((row) => row.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw invalid('mediaIds', `Unknown media: ${unknown.join(', ')}.`);
}

/** Sets the post's attachments to exactly these media, in this order. */
export async function replaceMedia(tx: Tx, postId: string, ids: string[]) {
  await tx.delete(postMedia).where(eq(postMedia.postId, postId));
  if (ids.length === 0) return;
  await tx
    .insert(postMedia)
    .values(ids.map((mediaId, position) => ({ postId, mediaId, position })));
}

/** The event a change into `status` produces: its own for scheduling and publishing. */
export const eventOfStatus = (status: PostStatus): EventType | undefined =>
  status === 'scheduled' ? 'post.scheduled' : status === 'published' ? 'post.published' : undefined;

/**
 * While the account requires approval, a `user` member cannot schedule or publish: they
 * submit the post, and an admin approves it. Admins publish directly.
 */
export async function assertMayPublish(db: Reader, principal: Principal) {
  if (principal.role === 'admin') return;
  const [account] = await db
    .select({ requireApproval: accounts.requireApproval })
    .from(accounts)
    .where(eq(accounts.id, principal.accountId));
  if (!account?.requireApproval) return;
  throw new AppError(
    'approval_required',
    'This account requires approval: submit the post (POST /api/content/posts/{id}/submit) and an admin schedules or publishes it.',
  );
}

/** A time of the body as a Date, `null` and left out (`undefined`) kept as they are. */
export const toDate = (value: string | null | undefined) =>
  value ? new Date(value) : (value as null | undefined);
