/**
 * The "done when" of webhooks and analytics, against the real product (`npm start`: the
 * scheduler and the webhook worker run in-process): a scheduled post publishes itself and its
 * receiver gets one signed delivery; a day of tracked events reads back in the stats.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliApiKey } from './cli';
import { ADMIN } from './server';
import { callApi } from './api';

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.end('ok');
  });
});
let key = '';

const api = (method: string, path: string, body?: unknown) => callApi(key, method, path, body);

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  key = await cliApiKey(
    ADMIN.email,
    'e2e-events',
    'read,write,content:read,content:write,analytics:read,analytics:write',
  );
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

describe('webhooks, end to end', () => {
  it('delivers one signed post.published to the receiver when a scheduled post publishes itself', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = await api('POST', '/api/webhooks', { url, events: ['post.published'] });
    expect(hook.status).toBe(201);
    const scheduledAt = new Date(Date.now() + 3_000).toISOString();
    const post = await api('POST', '/api/content/posts', {
      title: 'Goes out by itself',
      status: 'scheduled',
      scheduledAt,
    });
    expect(post.status).toBe(201);
    const deadline = Date.now() + 30_000;
    while (received.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(received).toHaveLength(1);
    const [delivery] = received;
    const event = new Webhook(hook.json.data.secret).verify(delivery?.body ?? '', {
      'webhook-id': String(delivery?.headers['webhook-id']),
      'webhook-timestamp': String(delivery?.headers['webhook-timestamp']),
      'webhook-signature': String(delivery?.headers['webhook-signature']),
    }) as { type: string; data: { object: { id: string; status: string } } };
    expect(event.type).toBe('post.published');
    expect(event.data.object).toMatchObject({ id: post.json.data.id, status: 'published' });
    // The worker logs the attempt once the receiver's answer is in: just after it was received.
    const deliveries = async () =>
      (await api('GET', `/api/webhooks/${hook.json.data.id}/deliveries`)).json.data;
    await expect
      .poll(async () => (await deliveries())[0]?.status, { timeout: 10_000 })
      .toBe('succeeded');
    const [logged] = await deliveries();
    expect(logged).toMatchObject({ status: 'succeeded', eventType: 'post.published' });
    expect(logged.attempts[0].statusCode).toBe(200);
  });
});

describe('analytics, end to end', () => {
  it('reads a day of impressions, likes and clicks back in the stats and the post’s figures', async () => {
    const post = await api('POST', '/api/content/posts', { title: 'Measured' });
    const id = post.json.data.id as string;
    // A day no other file records on (they share the server's account): exact totals.
    const day = new Date(Date.now() - 170 * 86_400_000).toISOString().slice(0, 10);
    const occurredAt = `${day}T12:00:00.000Z`;
    const recorded = await api('POST', '/api/analytics/events', {
      events: [
        { type: 'impression', contentId: id, integrationId: 'linkedin', count: 200, occurredAt },
        { type: 'like', contentId: id, integrationId: 'linkedin', count: 8, occurredAt },
        { type: 'click', contentId: id, count: 6, occurredAt },
      ],
    });
    expect(recorded.status).toBe(201);
    const stats = await api('GET', `/api/analytics/stats?from=${day}&to=${day}`);
    expect(stats.json.data.totals).toMatchObject({ impression: 200, like: 8, click: 6 });
    expect(stats.json.data.engagementRate).toBe(0.07);
    expect(stats.json.data.daily).toEqual([{ date: day, totals: stats.json.data.totals }]);
    const figures = await api('GET', `/api/analytics/content/${id}?from=${day}&to=${day}`);
    expect(figures.json.data.engagementRate).toBe(0.07);
    expect(figures.json.data.byPlatform).toEqual([
      { integrationId: 'linkedin', totals: expect.objectContaining({ impression: 200, like: 8 }) },
    ]);
  });
});
