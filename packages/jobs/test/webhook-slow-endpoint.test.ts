import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, webhookAttempts, webhookDeliveries, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, createWebhook, recordEvent } from '@chorus/services';
import { SCOPES } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliverWebhooksJob,
  seedWebhookLanesJob,
  startWorker,
  webhookSweepTiming,
  type Worker,
} from '../src';
import { until } from './until';

/**
 * A loopback receiver. A held one keeps every request open, unanswered, until the test lets
 * it go (an endpoint answering at the very end of the send timeout, without the wait); `open`
 * is what it holds that the sender has not given up on.
 */
async function startReceiver(opts: { hold: boolean }) {
  const arrived: string[] = [];
  const open = new Map<string, ServerResponse>();
  let hold = opts.hold;
  let mostOpen = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      arrived.push(id);
      if (!hold) return void res.end('ok');
      open.set(id, res);
      mostOpen = Math.max(mostOpen, open.size);
      // The sender gave up (its timeout): the request is no longer held.
      res.on('close', () => open.delete(id));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived,
    open,
    mostOpen: () => mostOpen,
    /** Answers what it holds, and from now on answers at once. */
    release() {
      hold = false;
      for (const res of open.values()) res.end('ok');
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A new account, and its admin as a signed-in principal with every scope. */
async function newAccount(db: Database['db'], name: string) {
  const { accountId, adminId } = await createAccount(db, {
    name,
    admin: {
      name: 'Ada',
      email: `ada@${name.replace(/\W/g, '')}.test`,
      password: 'correct horse battery',
    },
  });
  const principal = {
    accountId,
    userId: adminId,
    role: 'admin' as const,
    tier: 'free' as const,
    credential: { kind: 'session' as const, id: 'test' },
    scopes: [...SCOPES],
  };
  return { accountId, principal };
}

describe('a slow webhook endpoint', () => {
  let database: Database & { url: string };
  let worker: Worker;
  let stopped = false;
  const receivers: Receiver[] = [];
  // Small, so that a test can fill them: attempts out per worker, and to one endpoint.
  const slots = 8;
  const perEndpoint = 3;

  beforeAll(async () => {
    process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    database = await createTestServerDatabase();
    worker = await startWorker({
      databaseUrl: database.url,
      db: database.db,
      definitions: [
        deliverWebhooksJob({
          ...webhookSweepTiming(),
          concurrency: slots,
          endpointConcurrency: perEndpoint,
        }),
        seedWebhookLanesJob(),
      ],
    });
  });
  afterAll(async () => {
    for (const receiver of receivers) receiver.release();
    if (!stopped) await worker?.stop();
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await database?.close();
  });

  const receiver = async (hold: boolean) => {
    const started = await startReceiver({ hold });
    receivers.push(started);
    return started;
  };

  let accounts = 0;
  /** An account with one webhook per receiver, every event subscribed. */
  async function accountWith(...targets: Receiver[]) {
    const { accountId, principal } = await newAccount(database.db, `Slow ${++accounts}`);
    const hooks = [];
    for (const target of targets) {
      hooks.push(
        await createWebhook({
          db: database.db,
          principal,
          input: { url: target.url, events: ['*'], description: '', active: true },
        }),
      );
    }
    /** `count` events in one transaction: all their deliveries fall due together. */
    const emitMany = (count: number) =>
      database.db.transaction(async (tx) => {
        const emitted = [];
        for (let i = 0; i < count; i++) {
          emitted.push(
            await recordEvent({ tx, accountId, type: 'post.published', object: { id: `p${i}` } }),
          );
        }
        return emitted;
      });
    const emit = async () => (await emitMany(1))[0] as { id: string };
    return { hooks, emit, emitMany };
  }

  const delivery = async (webhookId: string, eventId: string) => {
    const rows = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId));
    const row = rows.find((d) => d.eventId === eventId);
    if (!row) throw new Error(`no delivery of ${eventId} to ${webhookId}`);
    return row;
  };
  const succeeded = async (webhookId: string, eventId: string) =>
    (await delivery(webhookId, eventId)).status === 'succeeded';

  it('holds up no other account’s delivery: it goes out and is logged while the slow one is held', async () => {
    const slow = await receiver(true);
    const fast = await receiver(false);
    const held = await accountWith(slow);
    const quick = await accountWith(fast);
    const heldEvent = await held.emit();
    await until(() => slow.open.has(heldEvent.id), 'the slow endpoint to hold its delivery');

    const quickEvent = await quick.emit();
    const [fastHook] = quick.hooks;
    await until(() => succeeded(fastHook?.id ?? '', quickEvent.id), 'the fast delivery');
    // Still held: the fast delivery did not wait for the slow attempt to end.
    expect(slow.open.has(heldEvent.id)).toBe(true);
    const slowDelivery = await delivery(held.hooks[0]?.id ?? '', heldEvent.id);
    expect(slowDelivery).toMatchObject({ status: 'pending', attempts: 0 });

    slow.release();
    await until(() => succeeded(held.hooks[0]?.id ?? '', heldEvent.id), 'the slow delivery');
    const attempts = await database.db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, slowDelivery.id));
    expect(attempts.map((a) => a.statusCode)).toEqual([200]);
    expect(slow.arrived).toEqual([heldEvent.id]);
    expect(fast.arrived).toEqual([quickEvent.id]);
  });

  it('holds up no other endpoint of its account: one event to both, the fast one is logged first', async () => {
    const slow = await receiver(true);
    const fast = await receiver(false);
    const both = await accountWith(slow, fast);
    const [slowHook, fastHook] = both.hooks;
    const event = await both.emit();
    await until(() => slow.open.has(event.id), 'the slow endpoint to hold its delivery');
    await until(() => succeeded(fastHook?.id ?? '', event.id), 'the fast delivery to be logged');
    expect(slow.open.has(event.id)).toBe(true);
    expect(await succeeded(slowHook?.id ?? '', event.id)).toBe(false);
    slow.release();
    await until(() => succeeded(slowHook?.id ?? '', event.id), 'the slow delivery');
  });

  it('takes at most its share of the worker: its backlog waits while another endpoint’s delivery goes out', async () => {
    const slow = await receiver(true);
    const fast = await receiver(false);
    const held = await accountWith(slow);
    const quick = await accountWith(fast);
    const backlog = await held.emitMany(perEndpoint + 3);
    await until(() => slow.open.size >= perEndpoint, 'the slow endpoint to hold its share');

    const quickEvent = await quick.emit();
    await until(() => succeeded(quick.hooks[0]?.id ?? '', quickEvent.id), 'the fast delivery');
    expect(slow.open.size).toBe(perEndpoint);
    expect(slow.mostOpen()).toBe(perEndpoint);

    slow.release();
    for (const event of backlog) {
      await until(() => succeeded(held.hooks[0]?.id ?? '', event.id), 'the backlog');
    }
    // Each once: no attempt outlived its lease.
    expect([...slow.arrived].sort()).toEqual(backlog.map((event) => event.id).sort());
    expect(slow.mostOpen()).toBe(perEndpoint);
  });

  it('has at most its slots out at once, however many endpoints are slow, and then sends the rest', async () => {
    const slowOnes = [await receiver(true), await receiver(true), await receiver(true)];
    const held = await accountWith(...slowOnes);
    const events = await held.emitMany(perEndpoint + 1);
    const open = () => slowOnes.reduce((sum, r) => sum + r.open.size, 0);
    await until(() => open() >= slots, 'every slot to be taken');
    expect(open()).toBe(slots);
    // Each endpoint under its own limit, all of them under the worker's.
    for (const r of slowOnes) expect(r.mostOpen()).toBeLessThanOrEqual(perEndpoint);

    for (const r of slowOnes) r.release();
    for (const [i, hook] of held.hooks.entries()) {
      for (const event of events) {
        await until(() => succeeded(hook.id, event.id), `delivery to endpoint ${i}`);
      }
      expect([...(slowOnes[i]?.arrived ?? [])].sort()).toEqual(events.map((e) => e.id).sort());
    }
  });

  it('logs the attempts still out when the worker stops, once they end', async () => {
    const slow = await receiver(true);
    const held = await accountWith(slow);
    const event = await held.emit();
    await until(() => slow.open.has(event.id), 'the slow endpoint to hold its delivery');
    const stopping = worker.stop();
    stopped = true;
    slow.release();
    await stopping;
    const row = await delivery(held.hooks[0]?.id ?? '', event.id);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});

describe('a backlog to one endpoint', () => {
  it('goes out as the endpoint’s slots free, without waiting for the next sweep', async () => {
    process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    const database = await createTestServerDatabase();
    const fast = await startReceiver({ hold: false });
    const perEndpoint = 3;
    const { accountId, principal } = await newAccount(database.db, 'Backlog');
    await createWebhook({
      db: database.db,
      principal,
      input: { url: fast.url, events: ['*'], description: '', active: true },
    });
    // Four times the endpoint's limit, due before the worker starts: its first sweep claims
    // the limit, and the rest must follow as those attempts end.
    const count = perEndpoint * 4;
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        await recordEvent({ tx, accountId, type: 'post.published', object: { id: `p${i}` } });
      }
    });
    const worker = await startWorker({
      databaseUrl: database.url,
      db: database.db,
      definitions: [
        // The next sweep an hour away: only the pool's own claims can send the backlog.
        deliverWebhooksJob({
          ...webhookSweepTiming(),
          intervalMs: 3_600_000,
          concurrency: 8,
          endpointConcurrency: perEndpoint,
        }),
        seedWebhookLanesJob(),
      ],
    });
    try {
      await until(() => fast.arrived.length >= count, 'the whole backlog', 20_000);
      expect(new Set(fast.arrived).size).toBe(count);
    } finally {
      await worker.stop();
      await fast.close();
      await database.close();
    }
  });
});
