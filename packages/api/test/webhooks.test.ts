import { eq, events, sql, webhookDeliveries, webhooks } from '@chorus/db';
import { claimDueDeliveries, deliverDueWebhooks, recordEvent } from '@chorus/services';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost } from './posts-fixtures';
import { startReceiver, type Received, type Receiver } from './receiver';

let h: Harness;
let receiver: Receiver;
let other: Awaited<ReturnType<Harness['newAccount']>>;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'd'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  // Retries at once, so a test drives each attempt with one sweep.
  process.env.CHORUS_WEBHOOK_RETRY_SCHEDULE = '0,0,0';
  h = await startHarness();
  receiver = await startReceiver();
  other = await h.newAccount('Globex', 'admin@globex-hooks.test');
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});
afterEach(() => {
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
});

const sweep = () => deliverDueWebhooks({ db: h.db });

async function createHook(body: Record<string, unknown> = {}, token?: string) {
  const { status, json } = await h.call('POST', '/api/webhooks', {
    body: { url: receiver.url, events: ['*'], ...body },
    token,
  });
  expect(status, JSON.stringify(json)).toBe(201);
  return json.data as { id: string; secret: string; events: string[]; active: boolean };
}

const deliveries = async (id: string, token?: string) =>
  (await h.call('GET', `/api/webhooks/${id}/deliveries`, { token })).json;

/** A webhook of its own account, so other tests' events do not reach it. */
async function isolated(events: string[] = ['*']) {
  const account = await h.newAccount(
    `Hooks ${Math.random()}`,
    `admin-${Date.now()}-${Math.random()}@hooks.test`,
  );
  const hook = await createHook({ events }, account.token);
  return { ...account, hook };
}

describe('webhook endpoints', () => {
  it('creates with a whsec_ secret shown once, lists, reads, updates and deletes', async () => {
    const { token } = await h.newAccount('Crud', 'admin@crud-hooks.test');
    const created = await createHook(
      { events: ['post.published', 'post.published', 'user.created'], description: 'ops' },
      token,
    );
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created).toMatchObject({
      events: ['post.published', 'user.created'],
      description: 'ops',
      active: true,
      disabledReason: null,
    });
    expect(created.id).toMatch(/^whk_[0-9A-Z]{26}$/);
    const listed = await h.call('GET', '/api/webhooks', { token });
    expect(listed.json.data).toHaveLength(1);
    expect(listed.json.meta.pagination.total).toBe(1);
    expect(JSON.stringify(listed.json)).not.toContain('secret');
    const got = await h.call('GET', `/api/webhooks/${created.id}`, { token });
    expect(got.json.data.secret).toBeUndefined();
    const updated = await h.call('PUT', `/api/webhooks/${created.id}`, {
      body: { events: ['*', 'post.created'], active: false },
      token,
    });
    expect(updated.status).toBe(200);
    expect(updated.json.data).toMatchObject({ events: ['*'], active: false, description: 'ops' });
    const stored = await h.db.select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(stored[0]?.secret).not.toContain(created.secret.slice(6));
    expect((await h.call('DELETE', `/api/webhooks/${created.id}`, { token })).status).toBe(204);
    expect((await h.call('GET', `/api/webhooks/${created.id}`, { token })).status).toBe(404);
  });

  it('writes nothing for an update that changes nothing: updatedAt stays', async () => {
    const hook = await createHook({ events: ['post.created', 'post.published'] });
    const { json } = await h.call('GET', `/api/webhooks/${hook.id}`);
    const { url, events, description, active, updatedAt } = json.data;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await h.call('PUT', `/api/webhooks/${hook.id}`, {
      body: { url, events, description, active },
    });
    expect(same.status).toBe(200);
    expect(same.json.data.updatedAt).toBe(updatedAt);
    // A change (the events' order is theirs too) is written.
    const changed = await h.call('PUT', `/api/webhooks/${hook.id}`, {
      body: { events: ['post.published', 'post.created'] },
    });
    expect(changed.json.data.updatedAt).not.toBe(updatedAt);
  });

  it('validates url and events, naming the field', async () => {
    for (const [body, path] of [
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: receiver.url, events: ['post.exploded'] }, 'events[0]'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url }, 'events'],
      [{ url: 'ftp://127.0.0.1/x', events: ['*'] }, 'url'],
      [{ url: 'https://user:pw@127.0.0.1/x', events: ['*'] }, 'url'],
    ] as const) {
      const { status, json } = await h.call('POST', '/api/webhooks', { body });
      expect(status, JSON.stringify(body)).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
  });

  it('refuses private, loopback and link-local targets unless the deployment allows them', async () => {
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://[fd00::1]/hook',
      'https://localhost/hook',
      'http://203.0.113.9/hook',
      receiver.url,
    ]) {
      const { status, json } = await h.call('POST', '/api/webhooks', {
        body: { url, events: ['*'] },
      });
      expect(status, url).toBe(400);
      expect(json.error.details.issues[0].path).toBe('url');
    }
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    // Allowed: loopback, http only to loopback.
    expect(
      (await h.call('POST', '/api/webhooks', { body: { url: receiver.url, events: ['*'] } }))
        .status,
    ).toBe(201);
    const httpPublic = await h.call('POST', '/api/webhooks', {
      body: { url: 'http://203.0.113.9/hook', events: ['*'] },
    });
    expect(httpPublic.status).toBe(400);
    // A name that does not resolve here: http is refused for what it is, before any look-up.
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    const httpName = await h.call('POST', '/api/webhooks', {
      body: { url: 'http://unresolvable.invalid/hook', events: ['*'] },
    });
    expect(httpName.json.error.details.issues).toEqual([
      { path: 'url', message: 'The URL must be https.' },
    ]);
  });

  it('refuses IPv4-compatible, NAT64, 6to4, Teredo, site-local and documentation targets, whatever IPv4 they embed', async () => {
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    for (const url of [
      'https://[::10.0.0.1]/hook',
      'https://[::a00:1]/hook',
      'https://[::8.8.8.8]/hook',
      'https://[64:ff9b::10.0.0.1]/hook',
      'https://[64:ff9b::a9fe:a9fe]/hook',
      'https://[64:ff9b::808:808]/hook',
      'https://[2002:a00:1::1]/hook',
      'https://[2002:7f00:1::]/hook',
      'https://[2002:808:808::1]/hook',
      'https://[fec0::1]/hook',
      'https://[feff::1]/hook',
      // Local-use NAT64, IPv4-translated, IPv4-mapped in hex, Teredo, documentation, discard.
      'https://[64:ff9b:1::a00:1]/hook',
      'https://[::ffff:0:7f00:1]/hook',
      'https://[::ffff:a00:1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
      'https://[2001:db8::1]/hook',
      'https://[3fff::1]/hook',
      'https://[100::1]/hook',
      // Documentation and retired IPv4 ranges.
      'https://192.0.2.1/hook',
      'https://198.51.100.1/hook',
      'https://203.0.113.1/hook',
      'https://192.88.99.1/hook',
    ]) {
      const { status, json } = await h.call('POST', '/api/webhooks', {
        body: { url, events: ['*'] },
      });
      expect(status, url).toBe(400);
      expect(json.error.details.issues[0]).toMatchObject({
        path: 'url',
        message: expect.stringMatching(/private, loopback or link-local/),
      });
    }
    // A public IPv6 address is still a target, as is a public IPv4 one mapped.
    for (const url of ['https://[2606:4700:4700::1111]/hook', 'https://[::ffff:808:808]/hook']) {
      const created = await h.call('POST', '/api/webhooks', { body: { url, events: ['*'] } });
      expect(created.status, url).toBe(201);
    }
  });

  it('allows public targets on ports 443 and 8443 only, unless private targets are allowed', async () => {
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    for (const url of [
      'https://93.184.216.34:22/hook',
      'https://93.184.216.34:6379/hook',
      'https://93.184.216.34:80/hook',
      'https://93.184.216.34:8080/hook',
    ]) {
      const { status, json } = await h.call('POST', '/api/webhooks', {
        body: { url, events: ['*'] },
      });
      expect(status, url).toBe(400);
      expect(json.error.details.issues[0]).toEqual({
        path: 'url',
        message: 'The URL must use port 443 or 8443.',
      });
    }
    for (const url of [
      'https://93.184.216.34/hook',
      'https://93.184.216.34:443/hook',
      'https://93.184.216.34:8443/hook',
    ]) {
      const { status } = await h.call('POST', '/api/webhooks', { body: { url, events: ['*'] } });
      expect(status, url).toBe(201);
    }
    // The same port is refused on update too.
    const { json: made } = await h.call('POST', '/api/webhooks', {
      body: { url: 'https://93.184.216.34/hook', events: ['*'] },
    });
    const moved = await h.call('PUT', `/api/webhooks/${made.data.id}`, {
      body: { url: 'https://93.184.216.34:25/hook' },
    });
    expect(moved.status).toBe(400);
    // Allowed private targets: any port (the loopback receivers of the tests).
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    const anyPort = await h.call('POST', '/api/webhooks', {
      body: { url: 'https://93.184.216.34:9000/hook', events: ['*'] },
    });
    expect(anyPort.status).toBe(201);
  });

  it('checks the target again at delivery time, sending nothing to a refused one', async () => {
    const { accountId, token, hook } = await isolated();
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    const before = receiver.received.length;
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    await sweep();
    expect(receiver.received.length).toBe(before);
    const [delivery] = (await deliveries(hook.id, token)).data;
    expect(delivery.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        statusCode: null,
        error: expect.stringMatching(/^refused: /),
      }),
    ]);
    expect(delivery.status).toBe('pending');
    // Allowed again: the retry goes out (and leaves nothing due for the next tests).
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    await sweep();
    expect(receiver.received.length).toBe(before + 1);
  });
});

describe('webhooks per account', () => {
  afterEach(() => {
    delete process.env.CHORUS_WEBHOOK_MAX_PER_ACCOUNT;
  });

  it('refuses one more than the limit with 409 webhook_limit_reached, even all at once', async () => {
    process.env.CHORUS_WEBHOOK_MAX_PER_ACCOUNT = '3';
    const { token } = await h.newAccount('Many hooks', 'admin@many-hooks.test');
    const body = { url: receiver.url, events: ['*'] };
    // Five at once: the per-account lock lets exactly three in.
    const results = await Promise.all(
      Array.from({ length: 5 }, () => h.call('POST', '/api/webhooks', { body, token })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409]);
    const refused = results.find((r) => r.status === 409);
    expect(refused?.json.error).toMatchObject({
      code: 'webhook_limit_reached',
      status: 409,
      details: { limit: 3 },
    });
    const listed = await h.call('GET', '/api/webhooks', { token });
    expect(listed.json.meta.pagination.total).toBe(3);
    // Deleting one makes room for one.
    const first = results.find((r) => r.status === 201)?.json.data.id as string;
    expect((await h.call('DELETE', `/api/webhooks/${first}`, { token })).status).toBe(204);
    expect((await h.call('POST', '/api/webhooks', { body, token })).status).toBe(201);
    expect((await h.call('POST', '/api/webhooks', { body, token })).status).toBe(409);
  });

  it('allows 50 by default, and refuses a bad setting naming it', async () => {
    const { webhookSettings } = await import('@chorus/services');
    expect(webhookSettings({}).maxPerAccount).toBe(50);
    expect(() => webhookSettings({ CHORUS_WEBHOOK_MAX_PER_ACCOUNT: 'many' })).toThrow(
      /CHORUS_WEBHOOK_MAX_PER_ACCOUNT/,
    );
  });
});

describe('delivery', () => {
  it('sends one signed delivery per event that standardwebhooks verifies, with the REST object', async () => {
    const { token, hook } = await isolated(['post.published']);
    const before = receiver.received.length;
    const post = await createPost(h, { title: 'Signed', status: 'published' }, token);
    await createPost(h, { title: 'Draft only' }, token);
    await sweep();
    await receiver.until(before + 1);
    await sweep();
    expect(receiver.received.length).toBe(before + 1);
    const { headers, body } = receiver.received[before] as Received;
    const verified = new Verifier(hook.secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    }) as { id: string; type: string; timestamp: string; data: { object: unknown } };
    expect(verified.type).toBe('post.published');
    expect(verified.id).toBe(headers['webhook-id']);
    expect(verified.id).toMatch(/^evt_[0-9A-Z]{26}$/);
    const rest = await h.call('GET', `/api/content/posts/${post.id}`, { token });
    expect(verified.data.object).toEqual(rest.json.data);
    expect(headers['content-type']).toBe('application/json');
    expect(() =>
      new Verifier(`whsec_${Buffer.from('x'.repeat(24)).toString('base64')}`).verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }),
    ).toThrow();
  });

  it('retries a receiver answering 500 twice, logging three attempts, newest delivery first', async () => {
    const { accountId, token, hook } = await isolated();
    receiver.answer({ status: 500, body: 'down' }, { status: 500, body: 'still down' });
    const before = receiver.received.length;
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: { n: 1 } }),
    );
    for (let i = 0; i < 3; i++) await sweep();
    await receiver.until(before + 3);
    const ids = receiver.received.slice(before).map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    const { data } = await deliveries(hook.id, token);
    expect(data).toHaveLength(1);
    expect(data[0].status).toBe('succeeded');
    expect(data[0].nextAttemptAt).toBeNull();
    expect(data[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([
      500, 500, 200,
    ]);
    expect(data[0].attempts[0]).toMatchObject({ attempt: 1, responseExcerpt: 'down', error: null });
    expect(data[0].attempts[2].durationMs).toBeGreaterThanOrEqual(0);
    // Newest first, paginated.
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.deleted', object: {} }),
    );
    const page = await h.call('GET', `/api/webhooks/${hook.id}/deliveries?limit=1`, { token });
    expect(page.json.data[0].eventType).toBe('post.deleted');
    expect(page.json.meta.pagination).toMatchObject({ total: 2, totalPages: 2 });
    await sweep();
  });

  it('fails a delivery after the last retry, treats 3xx as failure and never follows it', async () => {
    const { accountId, token, hook } = await isolated();
    const redirect = { status: 302, headers: { location: `${receiver.url}/elsewhere` } };
    receiver.answer(redirect, redirect, redirect, redirect);
    const before = receiver.received.length;
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    for (let i = 0; i < 5; i++) await sweep();
    await receiver.until(before + 4);
    expect(receiver.received.length).toBe(before + 4);
    const [delivery] = (await deliveries(hook.id, token)).data;
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toHaveLength(4);
    expect(delivery.attempts.every((a: { statusCode: number }) => a.statusCode === 302)).toBe(true);
  });

  it('disables an endpoint answering 410 at once, and sends it nothing more', async () => {
    const { accountId, token, hook } = await isolated();
    receiver.answer({ status: 410 });
    const before = receiver.received.length;
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    await sweep();
    await sweep();
    expect(receiver.received.length).toBe(before + 1);
    const got = await h.call('GET', `/api/webhooks/${hook.id}`, { token });
    expect(got.json.data).toMatchObject({ active: false, disabledReason: 'gone' });
    expect((await deliveries(hook.id, token)).data[0].status).toBe('failed');
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    await sweep();
    expect(receiver.received.length).toBe(before + 1);
    expect((await deliveries(hook.id, token)).meta.pagination.total).toBe(1);
    // Re-enabled by an admin: it receives again, and the reason is gone.
    const enabled = await h.call('PUT', `/api/webhooks/${hook.id}`, {
      body: { active: true },
      token,
    });
    expect(enabled.json.data).toMatchObject({ active: true, disabledReason: null });
  });

  it('disables an endpoint whose deliveries have all failed for 5 days', async () => {
    const { accountId, token, hook } = await isolated();
    await h.db
      .update(webhooks)
      .set({ failingSince: sql`now() - interval '6 days'` })
      .where(eq(webhooks.id, hook.id));
    receiver.answer({ status: 503 });
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    await sweep();
    const got = await h.call('GET', `/api/webhooks/${hook.id}`, { token });
    expect(got.json.data).toMatchObject({ active: false, disabledReason: 'failing' });
  });

  /** An event's first attempt, out at the receiver until `answer()` lets it fail (500). */
  async function attemptOut(accountId: string) {
    let answer = () => {};
    receiver.answer({ status: 500, after: new Promise<void>((resolve) => (answer = resolve)) });
    const before = receiver.received.length;
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    const sweeping = sweep();
    await receiver.until(before + 1);
    return { before, answer, sweeping };
  }

  it('keeps an endpoint switched off while an attempt was out, and sends it nothing more', async () => {
    const { accountId, token, hook } = await isolated();
    const { before, answer, sweeping } = await attemptOut(accountId);
    const off = await h.call('PUT', `/api/webhooks/${hook.id}`, { body: { active: false }, token });
    expect(off.json.data).toMatchObject({ active: false, disabledReason: null });
    answer();
    await sweeping;
    const got = await h.call('GET', `/api/webhooks/${hook.id}`, { token });
    expect(got.json.data).toMatchObject({ active: false, disabledReason: null });
    await sweep();
    await sweep();
    expect(receiver.received.length).toBe(before + 1);
    const [delivery] = (await deliveries(hook.id, token)).data;
    expect(delivery.status).toBe('failed');
  });

  it('keeps a retry asked while an attempt was out: due now, its schedule afresh', async () => {
    const { accountId, token, hook } = await isolated();
    const { before, answer, sweeping } = await attemptOut(accountId);
    const [out] = (await deliveries(hook.id, token)).data;
    const retried = await h.call('POST', `/api/webhooks/${hook.id}/deliveries/${out.id}/retry`, {
      token,
    });
    expect(retried.status).toBe(200);
    answer();
    await sweeping;
    const [row] = await h.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, out.id));
    // The attempt is counted; the schedule is the retry's, not the attempt's next step.
    expect(row).toMatchObject({ status: 'pending', attempts: 1, runAttempts: 0 });
    expect(row?.nextAttemptAt?.getTime()).toBeLessThanOrEqual(Date.now());
    // Three retries follow (the schedule's three steps), not two.
    receiver.answer({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    for (let i = 0; i < 6; i++) await sweep();
    expect(receiver.received.length).toBe(before + 5);
    const [failed] = (await deliveries(hook.id, token)).data;
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.attempts).toHaveLength(5);
  });

  it('keeps only the first 1 KiB of a huge answer', async () => {
    const { accountId, token, hook } = await isolated();
    receiver.answer({ status: 200, body: 'é'.repeat(1_000_000) });
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    await sweep();
    const [delivery] = (await deliveries(hook.id, token)).data;
    expect(delivery.status).toBe('succeeded');
    expect(Buffer.byteLength(delivery.attempts[0].responseExcerpt)).toBeLessThanOrEqual(1024);
  });

  it('cuts off a receiver that does not answer within 10 s', { timeout: 30_000 }, async () => {
    const { accountId, token, hook } = await isolated();
    receiver.answer('hang');
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    await sweep();
    const [delivery] = (await deliveries(hook.id, token)).data;
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(9_900);
    expect(delivery.attempts[0].durationMs).toBeLessThan(12_000);
    await sweep();
  });

  it('signs with the new and the previous secret for 24 hours after a rotation', async () => {
    const { accountId, token, hook } = await isolated();
    const rotated = await h.call('POST', `/api/webhooks/${hook.id}/rotate-secret`, { token });
    expect(rotated.status).toBe(200);
    const fresh = rotated.json.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(hook.secret);
    const verifyWith = (secret: string, r: { headers: Record<string, unknown>; body: string }) =>
      new Verifier(secret).verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
    const before = receiver.received.length;
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    await sweep();
    await receiver.until(before + 1);
    const during = receiver.received[before] as Received;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => verifyWith(fresh, during)).not.toThrow();
    expect(() => verifyWith(hook.secret, during)).not.toThrow();
    // After the overlap, the previous secret no longer signs.
    await h.db
      .update(webhooks)
      .set({ previousSecretExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(webhooks.id, hook.id));
    await h.db.transaction((tx) =>
      recordEvent({ tx, accountId, type: 'post.created', object: {} }),
    );
    await sweep();
    await receiver.until(before + 2);
    const after = receiver.received[before + 1] as Received;
    expect(() => verifyWith(fresh, after)).not.toThrow();
    expect(() => verifyWith(hook.secret, after)).toThrow();
  });

  it('sends a test event and retries a delivery through the same path, with empty bodies', async () => {
    const { token, hook } = await isolated();
    const before = receiver.received.length;
    const test = await h.call('POST', `/api/webhooks/${hook.id}/test`, { token });
    expect(test.status).toBe(201);
    expect(test.json.data).toMatchObject({
      eventType: 'webhook.test',
      status: 'pending',
      attempts: [],
    });
    await sweep();
    await receiver.until(before + 1);
    expect(JSON.parse((receiver.received[before] as Received).body).type).toBe('webhook.test');
    const retried = await h.call(
      'POST',
      `/api/webhooks/${hook.id}/deliveries/${test.json.data.id}/retry`,
      {
        token,
        raw: '',
        contentType: 'application/json',
      },
    );
    expect(retried.status).toBe(200);
    expect(retried.json.data.status).toBe('pending');
    await sweep();
    await receiver.until(before + 2);
    expect((receiver.received[before + 1] as Received).headers['webhook-id']).toBe(
      (receiver.received[before] as Received).headers['webhook-id'],
    );
    const [delivery] = (await deliveries(hook.id, token)).data;
    expect(delivery.attempts).toHaveLength(2);
    expect(delivery.status).toBe('succeeded');
  });
});

describe('accounts sharing the workers', () => {
  it('take turns: one account’s backlog does not keep another’s delivery out of a batch', async () => {
    while ((await sweep()) > 0);
    const busy = await isolated();
    const quiet = await isolated();
    await h.db.transaction(async (tx) => {
      for (let i = 0; i < 12; i++) {
        await recordEvent({ tx, accountId: busy.accountId, type: 'post.created', object: { i } });
      }
    });
    await h.db.transaction((tx) =>
      recordEvent({
        tx,
        accountId: quiet.accountId,
        type: 'post.created',
        object: { quiet: true },
      }),
    );
    const before = receiver.received.length;
    // One batch of 6: the busy account's share, then the quiet one's.
    const batch = 6;
    const sent = await deliverDueWebhooks({ db: h.db, batch, perAccount: 3, budgetMs: 0 });
    expect(sent).toBeLessThanOrEqual(batch);
    await receiver.until(before + sent);
    const bodies = receiver.received.slice(before).map((r) => JSON.parse(r.body).data.object);
    expect(bodies).toContainEqual({ quiet: true });
    expect(bodies.filter((object) => 'i' in object).length).toBeGreaterThanOrEqual(3);
    // An account alone fills whole batches: the rest of the backlog goes out.
    while ((await sweep()) > 0);
    expect(receiver.received.length).toBe(before + 13);
  });
});

describe('claims', () => {
  const claim = (limit: number, inFlight?: Map<string, number>) =>
    claimDueDeliveries(h.db, {
      limit,
      perAccount: 10,
      perEndpoint: 12,
      inFlight,
      leaseSeconds: 30,
      now: new Date(),
    });
  /** A webhook of its own account with `count` deliveries due. */
  async function backlog(count: number) {
    const { accountId, token, hook } = await isolated();
    await h.db.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        await recordEvent({ tx, accountId, type: 'post.created', object: { i } });
      }
    });
    const mine = (claimed: Awaited<ReturnType<typeof claim>>) =>
      claimed.filter((c) => c.webhook.id === hook.id).map((c) => c.delivery.id);
    // Its deliveries go with it: no later sweep sends them.
    const remove = () => h.call('DELETE', `/api/webhooks/${hook.id}`, { token });
    return { hook, mine, remove };
  }

  it('take different deliveries when made at once, and no more to an endpoint than it has room for', async () => {
    const { hook, mine, remove } = await backlog(20);
    // Two workers with nothing out: each takes its 10, none twice.
    const [first, second] = (await Promise.all([claim(10), claim(10)])).map(mine);
    expect(first).toHaveLength(10);
    expect(second).toHaveLength(10);
    expect(new Set([...(first ?? []), ...(second ?? [])]).size).toBe(20);
    // A third sees them leased.
    expect(mine(await claim(10))).toEqual([]);
    // Due again: a worker with 9 out to the endpoint takes 3 (its limit is 12).
    await h.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(webhookDeliveries.webhookId, hook.id));
    expect(mine(await claim(10, new Map([[hook.id, 9]])))).toHaveLength(3);
    expect(mine(await claim(10, new Map([[hook.id, 12]])))).toEqual([]);
    await remove();
  });

  // PGlite has one session: a transaction held open there would hold the claim too.
  it.runIf(process.env.DATABASE_URL)(
    'skip what another worker is claiming, and take the next ones',
    async () => {
      const { hook, mine, remove } = await backlog(20);
      await h.db.transaction(async (tx) => {
        // Another worker's claim, not yet committed: half the deliveries locked.
        const held = await tx
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.webhookId, hook.id))
          .limit(10)
          .for('update');
        const taken = mine(await claim(10));
        expect(taken).toHaveLength(10);
        expect(taken.filter((id) => held.some((row) => row.id === id))).toEqual([]);
      });
      await remove();
    },
  );
});

describe('a switched-off webhook', () => {
  it('is sent no test and no retry: 409 webhook_inactive, nothing queued', async () => {
    const { token, hook } = await isolated();
    const test = await h.call('POST', `/api/webhooks/${hook.id}/test`, { token });
    expect(test.status).toBe(201);
    await h.call('PUT', `/api/webhooks/${hook.id}`, { body: { active: false }, token });
    const refused = await h.call('POST', `/api/webhooks/${hook.id}/test`, { token });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({
      code: 'webhook_inactive',
      message: 'This webhook is switched off: switch it on (active: true) to send it a test.',
    });
    const retry = await h.call(
      'POST',
      `/api/webhooks/${hook.id}/deliveries/${test.json.data.id}/retry`,
      { token },
    );
    expect(retry.status).toBe(409);
    expect(retry.json.error.code).toBe('webhook_inactive');
    const log = await deliveries(hook.id, token);
    expect(log.meta.pagination.total).toBe(1);
    expect(log.data[0]).toMatchObject({ id: test.json.data.id, status: 'pending' });
  });
});

describe('events', () => {
  it('are written only when their change commits', async () => {
    const { accountId } = await isolated();
    const count = async () =>
      (
        await h.db
          .select({ n: sql<number>`count(*)::int` })
          .from(events)
          .where(eq(events.accountId, accountId))
      )[0]?.n;
    const deliveriesOf = async () =>
      (
        await h.db
          .select({ n: sql<number>`count(*)::int` })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.accountId, accountId))
      )[0]?.n;
    const [eventsBefore, deliveriesBefore] = [await count(), await deliveriesOf()];
    await expect(
      h.db.transaction(async (tx) => {
        await recordEvent({ tx, accountId, type: 'post.created', object: {} });
        throw new Error('the change fails after its event');
      }),
    ).rejects.toThrow('the change fails');
    expect(await count()).toBe(eventsBefore);
    expect(await deliveriesOf()).toBe(deliveriesBefore);
    // A refused API change emits nothing either.
    const { token } = await h.newAccount('Refused', 'admin@refused-hooks.test');
    await createHook({}, token);
    const taken = await h.call('POST', '/api/users', {
      body: { name: 'Dup', email: 'admin@refused-hooks.test', password: 'a-long-password' },
      token,
    });
    expect(taken.status).toBe(400);
  });

  it('covers users and integrations, with the object as the REST API returns it', async () => {
    const { token, hook } = await isolated(['user.created', 'user.updated', 'user.deleted']);
    const before = receiver.received.length;
    const created = await h.call('POST', '/api/users', {
      body: {
        name: 'Evented',
        email: `evented-${Date.now()}@hooks.test`,
        password: 'a-long-password',
      },
      token,
    });
    await h.call('PUT', `/api/users/${created.json.id}`, { body: { name: 'Renamed' }, token });
    const rest = await h.call('GET', `/api/users/${created.json.id}`, { token });
    await h.call('DELETE', `/api/users/${created.json.id}`, { token });
    await sweep();
    await receiver.until(before + 3);
    const got = receiver.received.slice(before).map((r) => JSON.parse(r.body));
    expect(got.map((e) => e.type).sort()).toEqual(['user.created', 'user.deleted', 'user.updated']);
    expect(got.find((e) => e.type === 'user.updated').data.object).toEqual(rest.json);
    expect(JSON.stringify(got)).not.toContain('a-long-password');
    void hook;
  });

  it('covers integrations connecting and disconnecting', async () => {
    const { token } = await isolated(['integration.connected', 'integration.disconnected']);
    const before = receiver.received.length;
    const connected = await h.call('POST', '/api/integrations/connect/unsplash', {
      body: { apiKey: 'unsplash-key-1234' },
      token,
    });
    expect(connected.status).toBe(201);
    expect(
      (await h.call('DELETE', '/api/integrations/disconnect/unsplash', { token })).status,
    ).toBe(200);
    await sweep();
    await receiver.until(before + 2);
    const got = receiver.received.slice(before).map((r) => JSON.parse(r.body));
    const byType = Object.fromEntries(got.map((e) => [e.type, e.data.object]));
    expect(byType['integration.connected']).toEqual(connected.json);
    expect(byType['integration.disconnected']).toMatchObject({
      integrationId: 'unsplash',
      status: 'disconnected',
    });
    expect(JSON.stringify(got)).not.toContain('unsplash-key-1234');
  });
});

describe('tenancy, scopes and roles', () => {
  it('hides one account’s webhooks and deliveries from another (404), and never crosses events', async () => {
    const { accountId, token, hook } = await isolated();
    for (const [method, path] of [
      ['GET', `/api/webhooks/${hook.id}`],
      ['PUT', `/api/webhooks/${hook.id}`],
      ['DELETE', `/api/webhooks/${hook.id}`],
      ['GET', `/api/webhooks/${hook.id}/deliveries`],
      ['POST', `/api/webhooks/${hook.id}/test`],
      ['POST', `/api/webhooks/${hook.id}/rotate-secret`],
      ['POST', `/api/webhooks/${hook.id}/deliveries/del_01ARZ3NDEKTSV4RRFFQ69G5FAV/retry`],
    ] as const) {
      const { status, json } = await h.call(method, path, {
        token: other.token,
        body: method === 'PUT' ? { description: 'x' } : undefined,
      });
      expect(status, `${method} ${path}`).toBe(404);
      expect(json.error.code).toBe('resource_not_found');
    }
    expect(
      (await h.call('GET', '/api/webhooks', { token: other.token })).json.data.map(
        (w: { id: string }) => w.id,
      ),
    ).not.toContain(hook.id);
    const before = (await deliveries(hook.id, token)).meta.pagination.total;
    await createPost(h, { title: 'Other account' }, other.token);
    expect((await deliveries(hook.id, token)).meta.pagination.total).toBe(before);
    void accountId;
  });

  it('needs read to read and write to manage; members read but do not manage', async () => {
    const { hook } = await isolated();
    void hook;
    const reader = (await h.keyFor(h.main.adminId, ['read'])).secret;
    const writer = (await h.keyFor(h.main.adminId, ['write'])).secret;
    const mine = await createHook();
    expect((await h.call('GET', '/api/webhooks', { token: reader })).status).toBe(200);
    const refusedRead = await h.call('GET', '/api/webhooks', { token: writer });
    expect(refusedRead.status).toBe(403);
    expect(refusedRead.json.error.code).toBe('insufficient_scope');
    const refusedWrite = await h.call('POST', '/api/webhooks', {
      body: { url: receiver.url, events: ['*'] },
      token: reader,
    });
    expect(refusedWrite.status).toBe(403);
    expect(refusedWrite.json.error.code).toBe('insufficient_scope');
    const member = await h.call('POST', '/api/users', {
      body: { name: 'Member', email: 'member@hooks.test', password: 'a-long-password' },
    });
    const memberKey = (await h.keyFor(member.json.id, ['read', 'write'])).secret;
    expect((await h.call('GET', `/api/webhooks/${mine.id}`, { token: memberKey })).status).toBe(
      200,
    );
    for (const [method, path] of [
      ['POST', '/api/webhooks'],
      ['PUT', `/api/webhooks/${mine.id}`],
      ['DELETE', `/api/webhooks/${mine.id}`],
      ['POST', `/api/webhooks/${mine.id}/test`],
      ['POST', `/api/webhooks/${mine.id}/rotate-secret`],
    ] as const) {
      const { status, json } = await h.call(method, path, {
        token: memberKey,
        body: method === 'DELETE' ? undefined : { url: receiver.url, events: ['*'] },
      });
      expect(status, `${method} ${path}`).toBe(403);
      expect(json.error.code).toBe('forbidden');
    }
    expect((await h.call('GET', '/api/webhooks', { token: null })).status).toBe(401);
  });
});
