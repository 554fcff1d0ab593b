import type { Post, Target } from '@chorus/validators';
import type { dashboardCaller } from '~/server/dashboard';

type Caller = Awaited<ReturnType<typeof dashboardCaller>>;
export type CalendarPost = Pick<Post, 'id' | 'title' | 'status' | 'scheduledAt' | 'publishedAt'> & {
  targets: Pick<Target, 'id' | 'channelId' | 'status'>[];
};
/** The instants the calendar shows, both included (the posts list's bounds), and its filter. */
export type CalendarRange = { from: string; to: string; channelId?: string };
export type CalendarPosts = {
  posts: CalendarPost[];
  /** Posts of the range left out by the cap, per status: none when nothing was left out. */
  missing: { scheduled: number; published: number };
};

const LIMIT = 100;
// The list reads only the posts of the range (its index does too), but nothing bounds how many
// posts one range holds: past 1,000 of a status (some 24 a day on a six-week month) the
// calendar stops reading, says how many it left out, and the page stays as cheap as 10 pages.
const MAX_PAGES = 10;

const slim = ({ id, title, status, scheduledAt, publishedAt, targets }: Post): CalendarPost => ({
  id,
  title,
  status,
  scheduledAt,
  publishedAt,
  targets: targets.map((t) => ({ id: t.id, channelId: t.channelId, status: t.status })),
});

/** Every page of one listing, up to the cap, and how many of its posts the cap left out. */
async function pagesOf(list: (page: number) => ReturnType<Caller['posts']['list']>) {
  const posts: Post[] = [];
  for (let page = 1; ; page++) {
    const answer = await list(page);
    posts.push(...answer.data);
    const { total, totalPages } = answer.meta.pagination;
    if (page >= totalPages) return { posts, missing: 0 };
    if (page === MAX_PAGES) return { posts, missing: Math.max(0, total - posts.length) };
  }
}

/**
 * Scheduled posts due, and published posts published, between the instants `from` and `to`
 * (both included): the list filters on those times, so only the posts the calendar shows are read.
 */
export async function calendarPosts(caller: Caller, { from, to, channelId }: CalendarRange) {
  const scheduled = await pagesOf((page) =>
    caller.posts.list({
      status: 'scheduled',
      scheduledFrom: from,
      scheduledTo: to,
      sort: 'scheduledAt', // soonest first: a cut leaves out the latest
      channelId,
      limit: LIMIT,
      page,
    }),
  );
  const published = await pagesOf((page) =>
    caller.posts.list({
      status: 'published',
      publishedFrom: from,
      publishedTo: to,
      channelId,
      limit: LIMIT,
      page,
    }),
  );
  // Keyed by id: a post published between the two reads, or moved between two pages, once.
  const byId = new Map<string, CalendarPost>();
  for (const post of [...scheduled.posts, ...published.posts]) byId.set(post.id, slim(post));
  return {
    posts: [...byId.values()],
    missing: { scheduled: scheduled.missing, published: published.missing },
  } satisfies CalendarPosts;
}
