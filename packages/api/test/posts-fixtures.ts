import { and, asc, eq, events, media, posts, sql } from '@chorus/db';
import { newId } from '@chorus/services';
import { expect } from 'vitest';
import type { Harness } from './harness';

export const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** Creates a post through the API and returns it (the envelope's `data`). */
export async function createPost(h: Harness, body: Record<string, unknown>, token?: string) {
  const { status, json } = await h.call('POST', '/api/content/posts', { body, token });
  expect(status, JSON.stringify(json)).toBe(201);
  return json.data as Record<string, unknown> & { id: string; status: string };
}

/** A post in the given status, reached through allowed transitions. */
export async function postIn(h: Harness, status: string, token?: string) {
  if (status === 'scheduled') {
    return createPost(h, { title: 'S', status, scheduledAt: inAnHour() }, token);
  }
  if (status === 'archived') {
    const post = await createPost(h, { title: 'A', status: 'published' }, token);
    const { json } = await h.call('PUT', `/api/content/posts/${post.id}`, {
      body: { status: 'archived' },
      token,
    });
    return json.data as { id: string; status: string };
  }
  if (status === 'pending_approval') {
    const post = await createPost(h, { title: 'R' }, token);
    const { json } = await h.call('POST', `/api/content/posts/${post.id}/submit`, {
      body: {},
      token,
    });
    return json.data as { id: string; status: string };
  }
  if (status === 'publishing' || status === 'failed') {
    // Only the publishing engine puts a post in these statuses; the test writes it as it would.
    const post = await createPost(h, { title: 'E' }, token);
    await h.db.update(posts).set({ status }).where(eq(posts.id, post.id));
    return { ...post, status };
  }
  return createPost(h, { title: 'P', status }, token);
}

/** A media record of the account, written directly (uploads are the media area's). */
export async function mediaOf(h: Harness, accountId: string) {
  const id = newId('med');
  await h.db.insert(media).values({
    id,
    accountId,
    filename: 'a.png',
    mimeType: 'image/png',
    size: 1,
    sha256: '0'.repeat(64),
    storageKey: id,
  });
  return id;
}

/** The events recorded about one post, oldest first. */
export async function eventsOf(h: Harness, postId: string) {
  const rows = await h.db
    .select()
    .from(events)
    .where(
      and(
        eq(events.accountId, h.main.accountId),
        sql`${events.payload}->'data'->'object'->>'id' = ${postId}`,
      ),
    )
    .orderBy(asc(events.createdAt));
  return rows.map((row) => row.payload);
}
