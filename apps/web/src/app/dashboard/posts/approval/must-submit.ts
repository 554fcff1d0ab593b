import type { Principal } from '@chorus/auth';
import type { DashboardCaller } from '~/server/dashboard';

/**
 * Whether this member submits posts for approval instead of scheduling or publishing them: the
 * account requires approval, and they are not an admin (the API refuses them the rest).
 */
export async function mustSubmit(caller: DashboardCaller, me: Principal) {
  if (me.role === 'admin') return false;
  return (await caller.account.settings({})).data.requireApproval;
}
