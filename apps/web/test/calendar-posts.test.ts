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
  createdAt: '2026-05-01T00:00:00.000Z',
  updatedAt: '2026-05-01T00:00:00.000Z',
});

/** posts.list over fixed posts per status, recording what it was asked. */
function fakeCaller(byStatus: Record<string, Post[]>) {
  const asked: Query[] = [];
  const list = (query: Query) => {
    asked.push(query);
    const all = byStatus[query.status ?? ''] ?? [];
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
  return { caller: { posts: { list } } as never, asked };
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
    expect(asked.filter((q) => q.status === 'scheduled')).toHaveLength(10);
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
});
