import type { Principal } from '@chorus/auth';
import { statusChangesOf } from '@chorus/services';
import type { Post, PostStatus } from '@chorus/validators';
import type { DashboardCaller } from './dashboard';
import { mayCall } from './may-call';

/**
 * What a member may do to posts, for the pages to offer that and nothing the API would refuse.
 * Two rules meet here, and only here: each procedure's own access rule (mayCall), and the
 * account's approval (docs/workflow.md): while it is on, a `user` member submits posts for an
 * admin's approval, and the API refuses them (403 approval_required) scheduling, publishing
 * now, any change to a scheduled post (a reschedule, a move on the calendar) and retrying.
 */
export type PostAccess = {
  /** Write and change posts (a draft, a failed one; back to draft, archive). */
  edit: boolean;
  delete: boolean;
  /** They submit their posts for approval where others schedule or publish them. */
  submits: boolean;
  /** Schedule, reschedule, move on the calendar, publish now. */
  publish: boolean;
  /** Send a failed post's failed channels again. */
  retry: boolean;
  /** Say whether an unconfirmed channel has the post: nothing is sent, approval or not. */
  resolve: boolean;
  /** Approve and reject submitted posts (admins). */
  decide: boolean;
};

/** This member's PostAccess; the account's settings are read only for a member approval holds. */
export async function postAccess(caller: DashboardCaller, me: Principal): Promise<PostAccess> {
  const submits =
    me.role !== 'admin' && (await caller.account.settings({})).data.requireApproval === true;
  const edit = mayCall(me, 'posts.update');
  return {
    edit,
    delete: mayCall(me, 'posts.delete'),
    submits,
    publish: edit && !submits,
    retry: mayCall(me, 'posts.retry') && !submits,
    resolve: mayCall(me, 'posts.resolve'),
    decide: mayCall(me, 'posts.approve'),
  };
}

/**
 * The changes of status a post's page offers: the API's transition table, without scheduling
 * and publishing for a member who may not publish.
 */
export function statusChangesFor(
  post: Pick<Post, 'status' | 'recurrence'>,
  access: PostAccess,
): PostStatus[] {
  const next = statusChangesOf(post.status, post.recurrence !== null);
  return access.publish ? next : next.filter((to) => to !== 'scheduled' && to !== 'published');
}
