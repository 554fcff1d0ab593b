import { events, sql, webhookDeliveries, webhookDeliveryCounts } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost } from './posts-fixtures';

let h: Harness;

beforeAll(async () => {
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  h = await startHarness();
});
afterAll(() => h.close());

/** The kept counts against the deliveries counted, per webhook. */
async function expectExact() {
  const kept: Record<string, number> = {};
  for (const row of await h.db.select().from(webhookDeliveryCounts)) {
    if (row.count !== 0) kept[row.webhookId] = row.count;
  }
  const counted: Record<string, number> = {};
  for (const row of await h.db
    .select({ id: webhookDeliveries.webhookId })
    .from(webhookDeliveries)) {
    counted[row.id] = (counted[row.id] ?? 0) + 1;
  }
  expect(kept).toEqual(counted);
}

async function createHook(events: string[]) {
  const { status, json } = await h.call('POST', '/api/webhooks', {
    body: { url: 'http://127.0.0.1:9/hook', events },
  });
  expect(status, JSON.stringify(json)).toBe(201);
  return json.data as { id: string };
}

const total = async (id: string) => {
  const { status, json } = await h.call('GET', `/api/webhooks/${id}/deliveries?limit=1`);
  expect(status, JSON.stringify(json)).toBe(200);
  return json.meta.pagination.total as number;
};

describe('the delivery log total, from a count kept per webhook', () => {
  it('stays exact as events fan out, concurrently, events are pruned and webhooks deleted', async () => {
    const all = await createHook(['*']);
    const created = await createHook(['post.created']);
    await Promise.all(Array.from({ length: 5 }, (_, i) => createPost(h, { title: `H${i}` })));
    await expectExact();
    expect(await total(all.id)).toBe(5);
    expect(await total(created.id)).toBe(5);

    // An event pruned takes its deliveries with it (the cascade).
    const [oldest] = await h.db.select({ id: events.id }).from(events).limit(1);
    await h.db.execute(sql`delete from events where id = ${oldest?.id ?? ''}`);
    await expectExact();

    expect((await h.call('DELETE', `/api/webhooks/${created.id}`)).status).toBe(204);
    await expectExact();
    expect(await total(all.id)).toBe(4);
  });
});
