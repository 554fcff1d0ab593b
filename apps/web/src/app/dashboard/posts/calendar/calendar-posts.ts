import type { Post } from '@chorus/validators';
import type { dashboardCaller } from '~/server/dashboard';

type Caller = Awaited<ReturnType<typeof dashboardCaller>>;
export type CalendarPost = Pick<Post, 'id' | 'title' | 'status' | 'scheduledAt' | 'publishedAt'>;

const LIMIT = 100;
// posts.list filters on createdAt only: the calendar reads pages until its window is
// covered, up to this many per status, and says so when it stopped short.
const MAX_PAGES = 10;

const slim = ({ id, title, status, scheduledAt, publishedAt }: Post): CalendarPost => ({
  id,
  title,
  status,
  scheduledAt,
  publishedAt,
});
const within = (iso: string | null, from: string, to: string) =>
  iso !== null && iso >= from && iso < to;

/** Scheduled posts due, and published posts published, between the instants `from` and `to`. */
export async function calendarPosts(caller: Caller, { from, to }: { from: string; to: string }) {
  const posts: CalendarPost[] = [];
  let truncated = false;
  // Soonest first: once one is due after the window, so are all the rest.
  for (let page = 1; ; page++) {
    const list = await caller.posts.list({
      status: 'scheduled',
      sort: 'scheduledAt',
      limit: LIMIT,
      page,
    });
    posts.push(...list.data.filter((p) => within(p.scheduledAt, from, to)).map(slim));
    const last = list.data.at(-1)?.scheduledAt;
    if (page >= list.meta.pagination.totalPages || (last && last >= to)) break;
    if (page === MAX_PAGES) {
      truncated = true;
      break;
    }
  }
  // A post is published after it is created: one created after the window was not published
  // in it. Newest first, so the recent ones come before any cut.
  for (let page = 1; ; page++) {
    const list = await caller.posts.list({ status: 'published', to, limit: LIMIT, page });
    posts.push(...list.data.filter((p) => within(p.publishedAt, from, to)).map(slim));
    if (page >= list.meta.pagination.totalPages) break;
    if (page === MAX_PAGES) {
      truncated = true;
      break;
    }
  }
  return { posts, truncated };
}
