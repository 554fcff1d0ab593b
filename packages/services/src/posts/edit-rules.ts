/**
 * The rules of editing a post that depend on what the edit changes: which fields an update
 * really changes, and which of them a post's state lets change.
 */
import type { Principal } from '@chorus/auth';
import type { UpdatePostInput } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { sameList } from '../shared/lists';
import { mediaIdsOf, type PostRow } from './records';
import { assertMayPublish } from './rules';
import { targetsDiffer } from './targets';
import type { Tx } from './tx';

/** The fields of an update body that change what the post says or where it goes. */
export type Editable = 'title' | 'content' | 'tags' | 'mediaIds' | 'targets' | 'recurrence';

/**
 * The fields whose value an update changes, in the post's order. A field sent with the value
 * it has is no edit (a client that sends the whole post back): it writes no `edited` entry, no
 * event, and may be sent where changing it is refused (the targets of a published post).
 */
export async function editedFields(tx: Tx, row: PostRow, input: UpdatePostInput) {
  const fields: Editable[] = [];
  if (input.title !== undefined && input.title !== row.title) fields.push('title');
  if (input.content !== undefined && input.content !== row.content) fields.push('content');
  if (input.tags && !sameList(input.tags, row.tags)) fields.push('tags');
  if (input.mediaIds) {
    const current = (await mediaIdsOf(tx, [row.id])).get(row.id) ?? [];
    if (!sameList(input.mediaIds, current)) fields.push('mediaIds');
  }
  if (input.targets && (await targetsDiffer(tx, row.id, input.targets))) fields.push('targets');
  if (input.recurrence !== undefined && input.recurrence !== row.recurrence) {
    fields.push('recurrence');
  }
  return fields;
}

/**
 * Targets change while nothing of them has gone out: a draft, or a scheduled post
 * (docs/publishing.md#targets).
 */
export function assertTargetsEditable(row: PostRow, status: PostRow['status']) {
  if (row.status === 'draft' || row.status === 'scheduled' || status === 'draft') return;
  const message = `The targets of a ${row.status} post cannot change; they can while it is a draft or scheduled.`;
  throw new AppError('validation_error', message, { issues: [{ path: 'targets', message }] });
}

/**
 * What an admin approves is what its author submitted: while a post waits for approval, only
 * an admin (who approves it) changes what it says; its author withdraws it to draft to edit it
 * (in the same update, too) and submits it again (docs/workflow.md).
 */
function assertPendingKept(
  row: PostRow,
  status: PostRow['status'],
  edited: Editable[],
  principal: Principal,
) {
  const [field] = edited;
  if (row.status !== 'pending_approval' || status !== row.status || !field) return;
  if (principal.role === 'admin') return;
  const message =
    'A post awaiting approval cannot change; withdraw it to draft to edit it, then submit it again.';
  throw new AppError('validation_error', message, { issues: [{ path: field, message }] });
}

/**
 * A post's content and media change at any time but while it is `publishing`: the engine reads
 * them as each target goes out, so the targets not yet sent would carry the new ones and the
 * networks would disagree. A failed post's are fixed, then retried. The same values again are
 * no change (`editedFields`).
 */
function assertSentPartsKept(row: PostRow, edited: Editable[]) {
  if (row.status !== 'publishing') return;
  const changed = edited.find((field) => field === 'content' || field === 'mediaIds');
  if (!changed) return;
  const message = `The ${changed} of a post cannot change while it is publishing; it can once publishing ends.`;
  throw new AppError('validation_error', message, { issues: [{ path: changed, message }] });
}

/**
 * The statuses in which `assertMayEdit` may refuse an edit that keeps the status: waiting for
 * approval, scheduled, publishing. It lets any such edit of a draft, a failed post (fixed, then
 * retried) or one that is over through, so a search for posts it would refuse reads only these.
 */
export const GUARDED_STATUSES = ['pending_approval', 'scheduled', 'publishing'] as const;

/**
 * Whether `principal` may make an edit of `edited` that takes the post to `status`. Scheduling,
 * publishing, and changing what a scheduled post will send are all publishing, which needs an
 * approval when the account requires one; a pending post is what its author submitted; a
 * publishing one's content and media are on their way. One rule for a post's update and for a
 * change to a medium the post sends (attached-media.ts).
 */
export async function assertMayEdit(
  tx: Tx,
  principal: Principal,
  row: PostRow,
  status: PostRow['status'],
  edited: Editable[],
) {
  const publishes = status === 'scheduled' || (status === 'published' && row.status !== status);
  if (publishes) await assertMayPublish(tx, principal);
  assertPendingKept(row, status, edited, principal);
  assertSentPartsKept(row, edited);
}
