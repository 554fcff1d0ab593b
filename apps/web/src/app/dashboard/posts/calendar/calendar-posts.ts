import type { Post, Target } from '@chorus/validators';
import type { DashboardCaller } from '~/server/dashboard';
import { accountChannels } from '../channels';

export type CalendarPost = Pick<Post, 'id' | 'title' | 'status' | 'scheduledAt' | 'publishedAt'> & {
  targets: Pick<Target, 'id' | 'channelId' | 'status'>[];
};
/** The instants the calendar shows, both included (the posts list's bounds), and its filter. */
export type CalendarRange = { from: string; to: string; channelId?: string };
/** An occurrence of a recurring series to come: the series' copy goes out then. */
export type CalendarOccurrence = Pick<Post, 'title'> & {
  seriesId: string;
  at: string;
  targets: CalendarPost['targets'];
};
/** A channel's posting slot of the shown days that no post holds. */
export type CalendarSlot = { channelId: string; at: string };
export type CalendarPosts = {
  posts: CalendarPost[];
  occurrences: CalendarOccurrence[];
  openSlots: CalendarSlot[];
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
async function pagesOf(list: (page: number) => ReturnType<DashboardCaller['posts']['list']>) {
  const posts: Post[] = [];
  for (let page = 1; ; page++) {
    const answer = await list(page);
    posts.push(...answer.data);
    const { total, totalPages } = answer.meta.pagination;
    if (page >= totalPages) return { posts, missing: 0 };
    if (page === MAX_PAGES) return { posts, missing: Math.max(0, total - posts.length) };
  }
}

const within = (at: string, { from, to }: CalendarRange) =>
  Date.parse(at) >= Date.parse(from) && Date.parse(at) <= Date.parse(to);

/** The coming occurrences of the account's series (of the channel filtered by) in the range. */
async function occurrencesIn(caller: DashboardCaller, range: CalendarRange) {
  const series = await pagesOf((page) =>
    caller.posts.list({
      status: 'scheduled',
      recurring: 'true',
      channelId: range.channelId,
      limit: LIMIT,
      page,
    }),
  );
  const occurrences = series.posts.flatMap((post) =>
    post.nextOccurrences
      .filter((at) => within(at, range))
      .map((at) => ({ seriesId: post.id, title: post.title, at, targets: slim(post).targets })),
  );
  return { occurrences, missing: series.missing };
}

/**
 * The free posting slots of the range, of every channel or the one filtered by. A slot where a
 * series' occurrence goes out on that channel is not free either (the slots only know posts).
 */
async function openSlotsIn(
  caller: DashboardCaller,
  range: CalendarRange,
  occurrences: CalendarOccurrence[],
): Promise<CalendarSlot[]> {
  const channelIds = range.channelId
    ? [range.channelId]
    : (await accountChannels(caller)).map((channel) => channel.id);
  const held = new Set(
    occurrences.flatMap((o) => o.targets.map((t) => `${t.channelId} ${Date.parse(o.at)}`)),
  );
  const slots: CalendarSlot[] = [];
  // One after the other: the embedded database's socket refuses pipelined statements.
  for (const channelId of channelIds) {
    const { data } = await caller.channels.slots({ id: channelId });
    for (const slot of data.upcoming) {
      const free = slot.free && !held.has(`${channelId} ${Date.parse(slot.at)}`);
      if (free && within(slot.at, range)) slots.push({ channelId, at: slot.at });
    }
  }
  return slots;
}

/**
 * Scheduled posts due, and published posts published, between the instants `from` and `to`
 * (both included): the list filters on those times, so only the posts the calendar shows are
 * read. Series are shown by their coming occurrences instead, beside the channels' free slots.
 */
export async function calendarPosts(caller: DashboardCaller, range: CalendarRange) {
  const { from, to, channelId } = range;
  const scheduled = await pagesOf((page) =>
    caller.posts.list({
      status: 'scheduled',
      recurring: 'false',
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
  const series = await occurrencesIn(caller, range);
  // Keyed by id: a post published between the two reads, or moved between two pages, once.
  const byId = new Map<string, CalendarPost>();
  for (const post of [...scheduled.posts, ...published.posts]) byId.set(post.id, slim(post));
  return {
    posts: [...byId.values()],
    occurrences: series.occurrences,
    openSlots: await openSlotsIn(caller, range, series.occurrences),
    missing: {
      scheduled: scheduled.missing + series.missing,
      published: published.missing,
    },
  } satisfies CalendarPosts;
}
