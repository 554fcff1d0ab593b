import type { Channel } from '@chorus/validators';
import type { DashboardCaller } from '~/server/dashboard';

/**
 * Every channel of the account, page after page (a post may target any of them). One request
 * after another: the embedded database's socket refuses pipelined statements.
 */
export async function accountChannels(caller: DashboardCaller): Promise<Channel[]> {
  const channels: Channel[] = [];
  for (let page = 1; ; page++) {
    const answer = await caller.channels.list({ page, limit: 100 });
    channels.push(...answer.data);
    if (page >= answer.meta.pagination.totalPages) return channels;
  }
}
