import type { DashboardCaller } from './dashboard';

/**
 * The account's IANA time zone (UTC unless an admin set another): the posts pages show and take
 * scheduling times in it, as the API plans slots and recurrence in it.
 */
export async function accountZone(caller: DashboardCaller): Promise<string> {
  const { data } = await caller.account.settings({});
  return data.timeZone;
}
