import type { Post } from '@chorus/validators';
import { describe, expect, it } from 'vitest';
import { calendarPosts } from '../src/app/dashboard/posts/calendar/calendar-posts';

type Query = { status?: string; page?: number; limit?: number } & Record<string, unknown>;
const RANGE = { from: '2026-05-10T15:00:00.000Z', to: '2026-05-17T14:59:59.999Z' };

const post = (id: string, status: Post['status']): Post => ({
  id,
  title: id,
  content: '',
  status,
  tags: [],
  mediaIds: [],
  scheduledAt: status === 'scheduled' ? '2026-05-12T01:00:00.000Z' : null,
  publishedAt: status === 'published' ? '2026-05-12T02:00:00.000Z' : null,
  authorId: null,
  targets: [],
  rejection: null,
  recurrence: null,
  recurrenceOf: null,
  nextOccurrences: [],
  createdAt: '2026-05-01T00:00:00.000Z',
  updatedAt: '2026-05-01T00:00:00.000Z',
});

type Slot = { at: string; free: boolean };

/**
 * posts.list over fixed posts per status (`series`: the recurring ones), and the channels'
 * slots, recording what it was asked.
 */
function fakeCaller(byStatus: Record<string, Post[]>, slots: Record<string, Slot[]> = {}) {
  const asked: Query[] = [];
  const list = (query: Query) => {
    asked.push(query);
    const all = byStatus[query.recurring === 'true' ? 'series' : (query.status ?? '')] ?? [];
    const limit = query.limit ?? 25;
    const page = query.page ?? 1;
    const data = all.slice((page - 1) * limit, page * limit);
    const pagination = {
      total: all.length,
      count: data.length,
      perPage: limit,
      currentPage: page,
      totalPages: Math.ceil(all.length / limit),
    };
    return Promise.resolve({ success: true as const, data, meta: { pagination } });
  };
  const page = <T>(data: T[]) => ({ data, meta: { pagination: { totalPages: 1 } } });
  const channels = {
    list: () => Promise.resolve(page(Object.keys(slots).map((id) => ({ id })))),
    slots: ({ id }: { id: string }) => Promise.resolve({ data: { upcoming: slots[id] ?? [] } }),
  };
  return { caller: { posts: { list }, channels } as never, asked };
}

const many = (n: number, status: Post['status'], prefix = status) =>
  Array.from({ length: n }, (_, i) => post(`${prefix}-${i}`, status));

describe('the calendar’s posts', () => {
  it('asks the list for the range only, scheduled and published apart, page by page', async () => {
    const { caller, asked } = fakeCaller({
      scheduled: many(150, 'scheduled'),
      published: many(3, 'published'),
    });
    const { posts, missing } = await calendarPosts(caller, RANGE);
    expect(posts).toHaveLength(153);
    expect(missing).toEqual({ scheduled: 0, published: 0 });
    expect(asked).toEqual([
      {
        status: 'scheduled',
        recurring: 'false',
        scheduledFrom: RANGE.from,
        scheduledTo: RANGE.to,
        sort: 'scheduledAt',
        limit: 100,
        page: 1,
      },
      expect.objectContaining({ status: 'scheduled', page: 2 }),
      {
        status: 'published',
        publishedFrom: RANGE.from,
        publishedTo: RANGE.to,
        limit: 100,
        page: 1,
      },
      { status: 'scheduled', recurring: 'true', limit: 100, page: 1 },
    ]);
    // Only what the grid draws travels to the browser: of the targets, their channel marks.
    expect(Object.keys(posts[0] ?? {}).sort()).toEqual([
      'id',
      'publishedAt',
      'scheduledAt',
      'status',
      'targets',
      'title',
    ]);
  });

  it('reads at most 1,000 posts of a status and says how many it left out', async () => {
    const { caller, asked } = fakeCaller({
      scheduled: many(1_234, 'scheduled'),
      published: many(1_000, 'published'),
    });
    const { posts, missing } = await calendarPosts(caller, RANGE);
    expect(missing).toEqual({ scheduled: 234, published: 0 });
    expect(posts).toHaveLength(2_000);
    expect(asked.filter((q) => q.status === 'scheduled' && !q.recurring)).toHaveLength(0);
    expect(asked.filter((q) => q.recurring === 'false')).toHaveLength(10);
    expect(asked.filter((q) => q.status === 'published')).toHaveLength(10);
  });

  it('shows a post once, as it was read last, when it changed between two reads', async () => {
    const moved = post('post-1', 'published');
    const { caller } = fakeCaller({
      scheduled: [post('post-1', 'scheduled'), post('post-2', 'scheduled')],
      published: [moved],
    });
    const { posts } = await calendarPosts(caller, RANGE);
    expect(posts.map((p) => [p.id, p.status])).toEqual([
      ['post-1', 'published'],
      ['post-2', 'scheduled'],
    ]);
  });

  it('shows a series by its coming occurrences of the range, and the free slots no one holds', async () => {
    const series: Post = {
      ...post('series-1', 'scheduled'),
      recurrence: 'FREQ=WEEKLY',
      targets: [
        {
          id: 'tgt-1',
          channelId: 'chn-a',
          content: null,
          mediaIds: null,
          firstComment: null,
          thread: null,
          status: 'pending',
          externalId: null,
          url: null,
          publishedAt: null,
          attempts: 0,
          error: null,
        },
      ],
      // The first is before the range, the last after it.
      nextOccurrences: [
        '2026-05-05T07:00:00.000Z',
        '2026-05-12T07:00:00.000Z',
        '2026-05-19T07:00:00.000Z',
      ],
    };
    const { caller } = fakeCaller(
      { series: [series] },
      {
        'chn-a': [
          { at: '2026-05-12T07:00:00.000Z', free: true }, // the series goes out then
          { at: '2026-05-13T07:00:00.000Z', free: true },
          { at: '2026-05-14T07:00:00.000Z', free: false }, // a post holds it
          { at: '2026-05-20T07:00:00.000Z', free: true }, // after the range
        ],
        'chn-b': [{ at: '2026-05-12T07:00:00.000Z', free: true }],
      },
    );
    const { occurrences, openSlots } = await calendarPosts(caller, RANGE);
    expect(occurrences).toEqual([
      {
        seriesId: 'series-1',
        title: 'series-1',
        at: '2026-05-12T07:00:00.000Z',
        targets: [{ id: 'tgt-1', channelId: 'chn-a', status: 'pending' }],
      },
    ]);
    expect(openSlots).toEqual([
      { channelId: 'chn-a', at: '2026-05-13T07:00:00.000Z' },
      { channelId: 'chn-b', at: '2026-05-12T07:00:00.000Z' },
    ]);
  });
});
