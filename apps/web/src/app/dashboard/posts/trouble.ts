import type { DashboardCaller } from '~/server/dashboard';

/**
 * The targets that went wrong and wait for someone: failed ones (to retry) and unconfirmed ones
 * (to resolve), found on the posts that hold them (failed, or still publishing the others).
 */
export async function publishingTrouble(caller: DashboardCaller) {
  const trouble = { failed: 0, unconfirmed: 0 };
  for (const status of ['failed', 'publishing'] as const) {
    for (let page = 1; ; page++) {
      // One request after another: the embedded database's socket refuses pipelined statements.
      const list = await caller.posts.list({ status, page, limit: 100 });
      for (const post of list.data) {
        for (const target of post.targets) {
          if (target.status === 'failed') trouble.failed++;
          if (target.status === 'unconfirmed') trouble.unconfirmed++;
        }
      }
      if (page >= list.meta.pagination.totalPages) break;
    }
  }
  return trouble;
}
