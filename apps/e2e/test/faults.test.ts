/**
 * Faults under load (PostgreSQL and Redis runs only): two `npm start` instances behind a
 * port balancer, on a PostgreSQL cluster and a Redis server of their own that the tests stop
 * and start again while requests flow. The instances are never restarted.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { startBalancer, type Balancer } from './balancer';
import { cliApiKey } from './cli';
import {
  freePort,
  startChorus,
  startPostgres,
  startRedis,
  type Chorus,
  type Service,
} from './processes';
import { ADMIN } from './server';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request on a connection of its own (so the balancer spreads them), never rejected. */
function send(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      `${base}${path}`,
      { method, headers: opts.headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    // A dropped connection is an answer too (status 0): the tests count them as failures.
    req.on('error', (error) => resolve({ status: 0, headers: {}, text: error.message }));
    req.end(opts.body);
  });
}

const json = (answer: Answer) => JSON.parse(answer.text) as Record<string, unknown>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, seconds: number, probe: () => Promise<T | undefined>) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(200);
  }
  throw new Error(`${what}: not within ${seconds} s`);
}

describe.runIf(process.env.DATABASE_URL)('faults under load', () => {
  const root = inject('root');
  let pg: Service;
  let redis: Service;
  let balancer: Balancer;
  let instances: Chorus[] = [];
  const dirs: string[] = [];
  let key = '';

  beforeAll(async () => {
    pg = await startPostgres();
    redis = await startRedis();
    const ports = [await freePort(), await freePort()];
    balancer = await startBalancer(ports);
    const shared = {
      ...(process.env as Record<string, string>),
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      CHORUS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      NEXTAUTH_SECRET: randomBytes(32).toString('base64'),
      AUTH_SECRET: '',
      NEXTAUTH_URL: '',
      CHORUS_PUBLIC_URL: balancer.base,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'silent',
      // Unauthenticated requests get a small budget, so that sharing it shows; keys, plenty.
      RATE_LIMITS: JSON.stringify({ anonymous: 10, free: { read: 100_000, write: 100_000 } }),
    };
    // One after the other: the first one migrates and creates the admin.
    for (const [i, port] of ports.entries()) {
      const dir = await mkdtemp(join(tmpdir(), 'chorus-faults-'));
      dirs.push(dir);
      instances.push(
        await startChorus(root, {
          ...shared,
          PORT: String(port),
          CHORUS_DATA_DIR: dir,
          // The job worker runs in the first instance only (it could in both).
          CHORUS_WORKER: i === 0 ? 'true' : 'false',
        }),
      );
    }
    key = await cliApiKey(ADMIN.email, 'faults', 'read,write', {
      ...shared,
      CHORUS_DATA_DIR: dirs[0] as string,
    });
  });

  afterEach((context) => {
    // An instance that stopped answering says why: its own output, in the failure's report.
    if (context.task.result?.state === 'fail') {
      for (const [i, instance] of instances.entries()) {
        console.error(`instance ${i} output:\n${instance.output().slice(-8000)}`);
      }
    }
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    instances = [];
    await balancer?.close();
    await redis?.remove();
    await pg?.remove();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('answers 503 with Retry-After while PostgreSQL is down, serves again once it is back, and leaves no half-written change', async () => {
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const answers: { at: number; kind: 'list' | 'create'; email?: string; answer: Answer }[] = [];
    let running = true;
    // Four clients, each alternating a page of users and a new user, as fast as answered.
    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        if (i % 2 === 0) {
          const answer = await send(balancer.base, 'GET', '/api/users?limit=5', { headers: auth });
          answers.push({ at: Date.now(), kind: 'list', answer });
        } else {
          const email = `fault-${n}-${i}@example.test`;
          const body = JSON.stringify({ name: `Fault ${n} ${i}`, email, password: 'fault pw 123' });
          const answer = await send(balancer.base, 'POST', '/api/users', { headers: auth, body });
          answers.push({ at: Date.now(), kind: 'create', email, answer });
        }
        await sleep(20);
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    await until('answers before the fault', 30, async () =>
      answers.filter((a) => a.answer.status === 201).length >= 8 ? true : undefined,
    );

    await pg.stop();
    const stoppedAt = Date.now();
    await until('503 answers while PostgreSQL is down', 30, async () =>
      answers.filter((a) => a.at > stoppedAt && a.answer.status === 503).length >= 8
        ? true
        : undefined,
    );
    await pg.start();
    const startedAt = Date.now();
    const recovered = await until('full service after PostgreSQL returned', 30, async () => {
      const after = answers.filter((a) => a.at > startedAt);
      const last = after.slice(-8);
      // Answered, and successfully: a dropped connection (status 0) is no recovery.
      const served = last.every((a) => a.answer.status >= 200 && a.answer.status < 300);
      return last.length === 8 && served ? Date.now() : undefined;
    });
    running = false;
    await Promise.all(clients);

    // Within seconds of its return, without restarting Chorus.
    expect(recovered - startedAt).toBeLessThan(20_000);
    for (const instance of instances) {
      const health = await send(instance.base, 'GET', '/api/health');
      expect(json(health)).toMatchObject({ status: 'ok' });
    }
    for (const { answer } of answers) {
      // Every answer is a success or the envelope's 503: no 500, no dropped connection.
      expect([200, 201, 503], answer.text).toContain(answer.status);
      if (answer.status === 503) {
        expect(json(answer)).toMatchObject({ error: { code: 'service_unavailable' } });
        expect(answer.headers['retry-after']).toMatch(/^\d+$/);
        expect(answer.headers['x-request-id']).toBeTruthy();
      }
    }

    // No half-written change: every user created has its user.created event and no event
    // lacks its user; every 201 is there; a 503 may or may not have committed, but whole.
    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    try {
      const users = await sql<{ email: string; events: number }[]>`
        select u.email,
               (select count(*)::int from events e
                where e.type = 'user.created' and e.payload->'data'->'object'->>'id' = u.id) as events
        from users u where u.email like 'fault-%'`;
      const orphans = await sql`
        select 1 from events e
        where e.type = 'user.created' and e.payload->'data'->'object'->>'email' like 'fault-%'
          and not exists (select 1 from users u where u.id = e.payload->'data'->'object'->>'id')`;
      expect(orphans).toHaveLength(0);
      expect(users.filter((u) => u.events !== 1)).toEqual([]);
      const stored = new Set(users.map((u) => u.email));
      const created = answers.filter((a) => a.kind === 'create' && a.answer.status === 201);
      expect(created.length).toBeGreaterThan(8);
      expect(created.filter((a) => !stored.has(a.email as string))).toEqual([]);
    } finally {
      await sql.end();
    }
  });

  it('serves requests with Redis stopped (rate limits fail open) and reports health degraded', async () => {
    const auth = { authorization: `Bearer ${key}` };
    await redis.stop();
    try {
      for (const instance of instances) {
        const res = await send(instance.base, 'GET', '/api/users?limit=5', { headers: auth });
        expect(res.status, res.text).toBe(200);
        const health = await send(instance.base, 'GET', '/api/health');
        expect(health.status).toBe(200);
        expect(json(health)).toMatchObject({
          status: 'degraded',
          checks: { database: { status: 'up' }, redis: { status: 'down' } },
        });
      }
    } finally {
      await redis.start();
    }
    for (const instance of instances) {
      await until('health ok once Redis is back', 30, async () => {
        const health = await send(instance.base, 'GET', '/api/health');
        return json(health).status === 'ok' ? true : undefined;
      });
    }
  });

  it('shares dashboard sessions: signed in through one instance, recognised by the other, and signed out everywhere', async () => {
    const [one, other] = instances as [Chorus, Chorus];
    const cookies = new Map<string, string>();
    const keep = (answer: Answer) => {
      for (const line of [answer.headers['set-cookie'] ?? []].flat()) {
        const [pair] = line.split(';');
        const [name, ...value] = (pair as string).split('=');
        cookies.set(name as string, value.join('='));
      }
    };
    const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const form = (fields: Record<string, string>) => ({
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

    // The CSRF token from one instance, the sign-in on the other.
    const csrf = await send(one.base, 'GET', '/api/auth/csrf');
    keep(csrf);
    const { csrfToken } = json(csrf) as { csrfToken: string };
    const signIn = await send(
      other.base,
      'POST',
      '/api/auth/callback/credentials',
      form({ csrfToken, email: ADMIN.email, password: ADMIN.password }),
    );
    keep(signIn);
    expect(signIn.status).toBe(302);
    expect([...cookies.keys()].some((name) => name.endsWith('session-token'))).toBe(true);

    // A procedure behind the session, on each instance: the tRPC door reads the cookie.
    const usersPage = (instance: Chorus, cookies: string) =>
      send(instance.base, 'GET', `/api/trpc/users.list?input=${encodeURIComponent('{}')}`, {
        headers: { cookie: cookies },
      });
    for (const instance of instances) {
      const page = await usersPage(instance, cookie());
      expect(page.status, `${instance.base}: ${page.text}`).toBe(200);
    }

    // Signed out on one instance, the cookie no longer works on the other (the ended session
    // is in the database, not in the instance's memory).
    const session = cookie();
    const signOut = await send(one.base, 'POST', '/api/auth/signout', form({ csrfToken }));
    expect(signOut.status).toBe(302);
    expect((await usersPage(other, session)).status).toBe(401);
  });

  // Last: it spends the per-address budget that unauthenticated requests share.
  it('shares rate limits across both instances: one budget, counted in Redis', async () => {
    const before = new Map(balancer.counts);
    const answers: Answer[] = [];
    for (let i = 0; i < 14; i++) answers.push(await send(balancer.base, 'GET', '/api/users'));
    // Both instances answered, alternately.
    for (const [port, count] of balancer.counts) {
      expect(count - (before.get(port) ?? 0)).toBe(7);
    }
    // One budget of 10: the remaining count falls by one per request, whichever instance
    // answers, and both instances refuse once it is spent.
    const remaining = answers
      .filter((a) => a.status === 401)
      .map((a) => Number(a.headers['x-ratelimit-remaining']));
    expect(remaining.length).toBeGreaterThan(0);
    expect(remaining.length).toBeLessThanOrEqual(10);
    remaining.forEach((value, i) => i > 0 && expect(value).toBe((remaining[i - 1] as number) - 1));
    const refused = answers.slice(remaining.length);
    expect(refused.length).toBeGreaterThanOrEqual(4);
    expect(refused.every((a) => a.status === 429)).toBe(true);
  });
});
