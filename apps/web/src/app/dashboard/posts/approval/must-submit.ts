import type { Principal } from '@chorus/auth';
import type { dashboardCaller } from '~/server/dashboard';

type Caller = Awaited<ReturnType<typeof dashboardCaller>>;

/**
 * Whether this member submits posts for approval instead of scheduling or publishing them: the
 * account requires approval, and they are not an admin (the API refuses them the rest).
 */
export async function mustSubmit(caller: Caller, me: Principal) {
  if (me.role === 'admin') return false;
  return (await caller.account.settings({})).data.requireApproval;
}
