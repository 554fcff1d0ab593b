/**
 * Issue 20 item 5: a timestamp's year is 0001 to 9999 (UTC) wherever a client sends one —
 * events' occurredAt, posts' scheduledAt, every list's date filters, the stats' days — and out
 * of it is a 400 naming the field, never the database's error as a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost } from './posts-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const YEAR = 'The year must be from 0001 to 9999 (in UTC).';
/** Year 0 written plainly, through a zone, and year 10000 through a zone. */
const OUT_OF_RANGE = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:30:00+01:00',
  '9999-12-31T23:30:00-05:00',
];

type Json = { error: { code: string; details: { issues: { path: string; message: string }[] } } };
const expectYearRefused = (res: { status: number; json: Json }, path: string) => {
  expect(res.status, `${path}: ${JSON.stringify(res.json)}`).toBe(400);
  expect(res.json.error.code).toBe('validation_error');
  expect(res.json.error.details.issues).toContainEqual({ path, message: YEAR });
};

describe('years out of 0001–9999', () => {
  it('are refused in tracked events’ occurredAt, naming the event', async () => {
    for (const occurredAt of OUT_OF_RANGE.slice(0, 2)) {
      const res = await h.call('POST', '/api/analytics/events', {
        body: { events: [{ type: 'view' }, { type: 'view', occurredAt }] },
      });
      expectYearRefused(res, 'events[1].occurredAt');
    }
    const first = await h.call('POST', '/api/analytics/events', {
      body: { events: [{ type: 'view', occurredAt: '0001-01-01T00:00:00Z' }] },
    });
    expect(first.status).toBe(201);
    expect(first.json.data[0].occurredAt).toBe('0001-01-01T00:00:00.000Z');
    // Listed as sent: a `Date` parsed from the database's text read years below 100 as 19xx
    // or 20xx; the row reader cuts the text.
    const listed = await h.call('GET', '/api/analytics/events?to=0001-12-31');
    expect(listed.json.data.map((e: { occurredAt: string }) => e.occurredAt)).toEqual([
      '0001-01-01T00:00:00.000Z',
    ]);
  });

  it('are refused in posts’ scheduledAt, on create and update', async () => {
    const post = await createPost(h, { title: 'When' });
    for (const scheduledAt of OUT_OF_RANGE) {
      const created = await h.call('POST', '/api/content/posts', {
        body: { title: 'Never', status: 'scheduled', scheduledAt },
      });
      expectYearRefused(created, 'scheduledAt');
      const updated = await h.call('PUT', `/api/content/posts/${post.id}`, {
        body: { scheduledAt },
      });
      expectYearRefused(updated, 'scheduledAt');
    }
    const latest = await h.call('POST', '/api/content/posts', {
      body: { title: 'Far', status: 'scheduled', scheduledAt: '9999-12-31T23:59:59.999Z' },
    });
    expect(latest.status).toBe(201);
    expect(latest.json.data.scheduledAt).toBe('9999-12-31T23:59:59.999Z');
  });

  it('are refused in every list’s date filters, naming the filter', async () => {
    const filters = {
      '/api/content/posts': [
        'from',
        'to',
        'scheduledFrom',
        'scheduledTo',
        'publishedFrom',
        'publishedTo',
      ],
      '/api/analytics/events': ['from', 'to'],
    };
    for (const [path, names] of Object.entries(filters)) {
      for (const name of names) {
        for (const value of ['0000-01-01', ...OUT_OF_RANGE]) {
          const res = await h.call('GET', `${path}?${name}=${encodeURIComponent(value)}`);
          expectYearRefused(res, name);
        }
        expect((await h.call('GET', `${path}?${name}=9999-12-31`)).status).toBe(200);
      }
    }
  });

  it('are refused in the stats’ days', async () => {
    const account = await h.call('GET', '/api/analytics/stats?from=0000-01-01&to=0000-12-31');
    expectYearRefused(account, 'from');
    const post = await createPost(h, { title: 'Stats' });
    const one = await h.call(
      'GET',
      `/api/analytics/content/${post.id}?from=0000-12-01&to=0000-12-31`,
    );
    expectYearRefused(one, 'from');
  });
});
