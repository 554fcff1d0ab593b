/**
 * `npm run bench:webhooks`: webhook delivery by the real worker (pg-boss sweeps, signed POSTs,
 * attempts logged) to a receiver on loopback, against a bare baseline in the same run: plain
 * HTTP POSTs of the same bodies from one process, as many at once as the worker may send to
 * those endpoints.
 *
 * 1. Throughput: EVENTS deliveries falling due at once (events committed in one transaction),
 *    to 1 and to 20 subscribed endpoints: deliveries/s from the first arrival to the last
 *    (the wait for a sweep to pick up the commit is part 2's), and the baseline's POSTs/s.
 * 2. Latency: events committed one by one at RATE per second while the worker runs; commit →
 *    receiver p50/p99.
 *
 * Set DATABASE_URL for PostgreSQL (the target is measured there); without it, an embedded
 * PGlite. Knobs: EVENTS (2000), RATE (20), SECONDS (10).
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, createWebhook, recordEvent } from '@chorus/services';
import { SCOPES } from '@chorus/validators';
import { deliverWebhooksJob, seedWebhookLanesJob, startWorker, webhookSweepTiming } from '../src';

process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
process.env.CHORUS_ENCRYPTION_KEY ??= 'f'.repeat(64);
process.env.LOG_LEVEL ??= 'silent';
const EVENTS = Number(process.env.EVENTS ?? 2000);
const RATE = Number(process.env.RATE ?? 20);
const SECONDS = Number(process.env.SECONDS ?? 10);
const timing = webhookSweepTiming();
/** What the worker has in flight at most to `endpoints` endpoints. */
const inFlight = (endpoints: number) =>
  Math.min(timing.concurrency, endpoints * timing.endpointConcurrency);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** The receiver: counts requests and notes when each event id arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  let count = 0;
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, performance.now());
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    arrivals,
    count: () => count,
    async until(n: number) {
      while (count < n) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The baseline: the same bodies POSTed from one process, `concurrency` at once. */
async function bareSend(url: string, bodies: string[], concurrency: number) {
  let next = 0;
  const post = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        agent: false,
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) await post(bodies[next++] as string);
    }),
  );
}

async function main() {
  const database = await createTestServerDatabase();
  const { db } = database;
  const receiver = await startReceiver();
  const account = async (name: string) => {
    const { accountId, adminId } = await createAccount(db, {
      name,
      admin: {
        name,
        email: `${name.toLowerCase().replace(/\W/g, '')}@bench.test`,
        password: 'bench pw 123',
      },
    });
    const principal = {
      accountId,
      userId: adminId,
      role: 'admin' as const,
      tier: 'free' as const,
      credential: { kind: 'session' as const, id: 'bench' },
      scopes: [...SCOPES],
    };
    return { accountId, principal };
  };
  const subscribe = async (
    principal: Awaited<ReturnType<typeof account>>['principal'],
    n: number,
  ) => {
    for (let i = 0; i < n; i++) {
      await createWebhook({
        db,
        principal,
        input: { url: receiver.url, events: ['post.published'], description: '', active: true },
      });
    }
  };
  const record = (accountId: string, i: number) =>
    db.transaction((tx) =>
      recordEvent({
        tx,
        accountId,
        type: 'post.published',
        object: { id: `post_${i}`, title: `Post ${i}` },
      }),
    );
  /** `n` events in one transaction: their deliveries all fall due at its commit. */
  const recordMany = (accountId: string, n: number) =>
    db.transaction(async (tx) => {
      const payloads = [];
      for (let i = 0; i < n; i++) {
        payloads.push(
          await recordEvent({
            tx,
            accountId,
            type: 'post.published',
            object: { id: `post_${i}`, title: `Post ${i}` },
          }),
        );
      }
      return payloads;
    });

  const rows: string[] = [];
  const worker = await startWorker({
    databaseUrl: database.url,
    db,
    definitions: [deliverWebhooksJob(), seedWebhookLanesJob()],
  });
  try {
    // Warm-up (not reported), as large as a measure: both sides' code paths (compiled by
    // then), connections and pools. With less, the first measure paid for it.
    {
      const { accountId, principal } = await account('Warm-up');
      await subscribe(principal, 1);
      const before = receiver.count();
      const payloads = await recordMany(accountId, EVENTS);
      await receiver.until(before + EVENTS);
      await bareSend(
        receiver.url,
        payloads.map((payload) => JSON.stringify(payload)),
        inFlight(1),
      );
    }
    for (const endpoints of [1, 20]) {
      const { accountId, principal } = await account(`Throughput ${endpoints}`);
      await subscribe(principal, endpoints);
      const events = Math.ceil(EVENTS / endpoints);
      const deliveries = events * endpoints;
      const before = receiver.count();
      const payloads = await recordMany(accountId, events);
      await receiver.until(before + deliveries);
      // From the first arrival: how soon a sweep picks up a commit is the latency's measure.
      const started = Math.min(...payloads.map((p) => receiver.arrivals.get(p.id) ?? Infinity));
      const seconds = (performance.now() - started) / 1000;
      const bodies = payloads.map((payload) => JSON.stringify(payload));
      const bareBodies = Array.from(
        { length: deliveries },
        (_, i) => bodies[i % bodies.length] as string,
      );
      const bareStarted = performance.now();
      await bareSend(receiver.url, bareBodies, inFlight(endpoints));
      const bareSeconds = (performance.now() - bareStarted) / 1000;
      const rate = deliveries / seconds;
      const bareRate = deliveries / bareSeconds;
      rows.push(
        `${String(endpoints).padStart(3)} endpoint(s): ${deliveries} deliveries, ${rate.toFixed(0)}/s; bare POSTs ${bareRate.toFixed(0)}/s; ratio ${(rate / bareRate).toFixed(2)}× (target ≥ 0.5)`,
      );
    }

    const { accountId, principal } = await account('Latency');
    await subscribe(principal, 1);
    const committed = new Map<string, number>();
    const total = RATE * SECONDS;
    for (let i = 0; i < total; i++) {
      const event = await record(accountId, i);
      committed.set(event.id, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 1000 / RATE));
    }
    while ([...committed.keys()].some((id) => !receiver.arrivals.has(id))) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const lags = [...committed]
      .map(([id, at]) => (receiver.arrivals.get(id) ?? NaN) - at)
      .sort((a, b) => a - b);
    rows.push(
      `latency, commit → receiver, ${total} events at ${RATE}/s: p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${percentile(lags, 99).toFixed(0)} ms, max ${(lags.at(-1) ?? NaN).toFixed(0)} ms (target p99 < 1000)`,
    );
  } finally {
    await worker.stop();
    await receiver.close();
    await database.close();
  }
  console.log(
    `\nWebhook delivery (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}):`,
  );
  for (const row of rows) console.log(`  ${row}`);
}

await main();
