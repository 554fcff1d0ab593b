import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, channels, eq, events, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, publishingCredentials, refreshExpiringCredentials } from '@chorus/services';
import {
  mastodonFaults,
  startMastodonStandIn,
  startXStandIn,
  type MastodonStandIn,
  type XStandIn,
} from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  dispatchPublishingJob,
  publishDuePostsJob,
  publishTargetJobs,
  startWorker,
  type Worker,
} from '../src';
import {
  connectionRow,
  insertPost,
  postStatus,
  seedChannel,
  targetsOf,
} from './publishing-fixtures';
import { until } from './until';

/**
 * The error policy of docs/publishing.md, class by class, through a real worker against the
 * stand-ins' documented failure answers (retries are fast here: 20 ms backoff).
 */

let database: Database & { url: string };
let worker: Worker;
let mastodon: MastodonStandIn;
let x: XStandIn;
const timing = { sweepIntervalMs: 100, concurrency: 8 };

async function account(name: string) {
  const { accountId } = await createAccount(database.db, {
    name,
    admin: { name: 'Ada', email: `ada@${name}.test`, password: 'correct horse battery' },
  });
  return accountId;
}

/** An account with a Mastodon channel of its own (its own token, so revoking it is local). */
async function mastodonChannel(name: string) {
  const accountId = await account(name);
  const user = mastodon.addAccount({ username: name });
  const channelId = await seedChannel(database.db, {
    accountId,
    integrationId: 'mastodon',
    kind: 'api_key',
    externalId: user.accountId,
    credentials: { accessToken: user.token, extra: { instanceUrl: mastodon.url } },
  });
  return { accountId, channelId, token: user.token };
}

async function xChannel(name: string, tokenExpiresAt?: Date) {
  const accountId = await account(name);
  const user = x.addUser({ username: name });
  const channelId = await seedChannel(database.db, {
    accountId,
    integrationId: 'x',
    externalId: user.userId,
    handle: `@${name}`,
    credentials: { accessToken: user.token, refreshToken: user.refreshToken },
    tokenExpiresAt,
  });
  return { accountId, channelId, ...user };
}

const settled = (postId: string) =>
  until(async () => {
    const status = await postStatus(database.db, postId);
    return status === 'published' || status === 'failed';
  }, `post ${postId} to settle`);

const statusesWith = (text: string) => mastodon.published().filter((s) => s.text === text);
const postsTo = (text: string) =>
  mastodon.received.filter(
    (r) => r.method === 'POST' && r.url === '/api/v1/statuses' && r.body.toString().includes(text),
  );

const connectionOf = (accountId: string, integrationId: string) =>
  connectionRow(database.db, accountId, integrationId);

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  // The Mastodon stand-in is the channel's own server, on loopback: allowed as in development.
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  process.env.CHORUS_PUBLISHING_BACKOFF_MS = '20';
  database = await createTestServerDatabase();
  mastodon = await startMastodonStandIn({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  x = await startXStandIn();
  process.env.CHORUS_INTEGRATION_X_API_URL = x.url;
  process.env.CHORUS_INTEGRATION_X_TOKEN_URL = `${x.url}/2/oauth2/token`;
  process.env.CHORUS_INTEGRATION_X_CLIENT_ID = x.client.clientId;
  process.env.CHORUS_INTEGRATION_X_CLIENT_SECRET = x.client.clientSecret;
  worker = await startWorker({
    databaseUrl: database.url,
    db: database.db,
    definitions: [
      publishDuePostsJob({ intervalMs: 100, pollingIntervalSeconds: 0.5 }),
      ...publishTargetJobs(timing),
      dispatchPublishingJob(timing),
    ],
  });
});

afterAll(async () => {
  await worker?.stop();
  await mastodon?.close();
  await x?.close();
  await database?.close();
});

describe('the error policy', () => {
  it('rate_limited: waits for the reset the network gave, then publishes', async () => {
    const { accountId, channelId } = await mastodonChannel('ratelimited');
    mastodon.faults.inject(mastodonFaults.rateLimited(2), {
      method: 'POST',
      path: '/api/v1/statuses',
    });
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Rate limited once',
      targets: [{ channelId }],
    });
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    const [refused, accepted] = postsTo('Rate limited once');
    // The reset was 2 s ahead (whole seconds as Mastodon sends it): not retried before ~1 s.
    expect((accepted?.at.getTime() ?? 0) - (refused?.at.getTime() ?? 0)).toBeGreaterThan(900);
    expect(statusesWith('Rate limited once')).toHaveLength(1);
    expect((await targetsOf(database.db, postId))[0]).toMatchObject({ attempts: 2, error: null });
  });

  it('transient: retried with backoff until it goes through', async () => {
    const { accountId, channelId } = await mastodonChannel('transient');
    mastodon.faults.inject(mastodonFaults.unavailable(), {
      method: 'POST',
      path: '/api/v1/statuses',
      times: 2,
    });
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Unavailable twice',
      targets: [{ channelId }],
    });
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    expect(statusesWith('Unavailable twice')).toHaveLength(1);
    expect((await targetsOf(database.db, postId))[0]?.attempts).toBe(3);
  });

  it('transient: gives up after 5 attempts, failed and retryable', async () => {
    const { accountId, channelId } = await mastodonChannel('exhausted');
    mastodon.faults.inject(mastodonFaults.unavailable(), {
      method: 'POST',
      path: '/api/v1/statuses',
      times: 10,
    });
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Never available',
      targets: [{ channelId }],
    });
    await settled(postId);
    mastodon.faults.clear();
    expect(await postStatus(database.db, postId)).toBe('failed');
    expect((await targetsOf(database.db, postId))[0]).toMatchObject({
      status: 'failed',
      attempts: 5,
      error: { code: 'network_error', retryable: true },
    });
    expect(postsTo('Never available')).toHaveLength(5);
  });

  it("rejected: failed with the network's own message, not retried", async () => {
    const { accountId, channelId } = await mastodonChannel('rejected');
    mastodon.faults.inject(mastodonFaults.rejected('Validation failed: Text is too silly'), {
      method: 'POST',
      path: '/api/v1/statuses',
    });
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Refused',
      targets: [{ channelId }],
    });
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('failed');
    const [target] = await targetsOf(database.db, postId);
    expect(target).toMatchObject({ status: 'failed', attempts: 1 });
    expect(target?.error).toMatchObject({ code: 'rejected', retryable: false });
    expect(target?.error?.message).toContain('Validation failed: Text is too silly');
    expect(postsTo('Refused')).toHaveLength(1);
  });

  it('network errors say so in plain words: no host, port or socket code in the message', async () => {
    // An instance that refuses connections: a closed port on loopback.
    const closed = await new Promise<string>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(`http://127.0.0.1:${port}`));
      });
    });
    const accountId = await account('unreachable');
    const channelId = await seedChannel(database.db, {
      accountId,
      integrationId: 'mastodon',
      kind: 'api_key',
      externalId: '1',
      credentials: { accessToken: 'token', extra: { instanceUrl: closed } },
    });
    const logged: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      logged.push(String(chunk));
      return true;
    });
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Nobody home',
      targets: [{ channelId }],
    });
    await settled(postId).finally(() => write.mockRestore());
    const [target] = await targetsOf(database.db, postId);
    // The address and the socket's code are the worker's log's.
    const lines = logged.flatMap((line) => {
      try {
        return [JSON.parse(line) as { targetId?: string; detail?: string }];
      } catch {
        return [];
      }
    });
    const mine = lines.filter((line) => line.targetId === target?.id);
    expect(mine).toHaveLength(5);
    expect(mine[0]?.detail).toBe(`${closed.slice('http://'.length)}: ECONNREFUSED`);
    expect(target).toMatchObject({
      status: 'failed',
      attempts: 5,
      error: {
        code: 'network_error',
        message: 'The network could not be reached.',
        retryable: true,
      },
    });
  });

  it('a rejection without words of the network: its status in plain words, no host', async () => {
    const { accountId, channelId } = await mastodonChannel('wordless');
    mastodon.faults.inject(
      { kind: 'answer', answer: { status: 422 } },
      { method: 'POST', path: '/api/v1/statuses' },
    );
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Refused without words',
      targets: [{ channelId }],
    });
    await settled(postId);
    const [target] = await targetsOf(database.db, postId);
    expect(target?.error).toEqual({
      code: 'rejected',
      message: 'The network answered with an error (HTTP 422).',
      retryable: false,
    });
  });

  it('revoked: the connection needs reconnecting, with its event; the target fails', async () => {
    const { accountId, channelId, token } = await mastodonChannel('revoked');
    mastodon.revoke(token);
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Revoked grant',
      targets: [{ channelId }],
    });
    await settled(postId);
    expect((await targetsOf(database.db, postId))[0]).toMatchObject({
      status: 'failed',
      error: { code: 'reconnect_required', retryable: true },
    });
    expect((await connectionOf(accountId, 'mastodon'))?.status).toBe('needs_reconnect');
    const recorded = await database.db
      .select({ payload: events.payload })
      .from(events)
      .where(and(eq(events.accountId, accountId), eq(events.type, 'integration.needs_reconnect')));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.payload.data.object).toMatchObject({
      integrationId: 'mastodon',
      status: 'needs_reconnect',
    });
    // Later targets of that connection fail at once, without calling the network.
    const before = mastodon.received.length;
    const next = await insertPost(database.db, {
      accountId,
      content: 'After revocation',
      targets: [{ channelId }],
    });
    await settled(next.postId);
    expect((await targetsOf(database.db, next.postId))[0]?.error?.code).toBe('reconnect_required');
    expect(mastodon.received.slice(before).some((r) => r.body.includes('After revocation'))).toBe(
      false,
    );
  });

  it('unknown_outcome on an idempotent network: retried with the same key, one status', async () => {
    const { accountId, channelId } = await mastodonChannel('dropped');
    mastodon.faults.inject({ kind: 'drop' }, { method: 'POST', path: '/api/v1/statuses' });
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Dropped answer',
      targets: [{ channelId }],
    });
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    const sent = postsTo('Dropped answer');
    expect(sent).toHaveLength(2);
    expect(sent[1]?.headers['idempotency-key']).toBe(sent[0]?.headers['idempotency-key']);
    expect(statusesWith('Dropped answer')).toHaveLength(1);
  });

  it('unknown_outcome elsewhere: unconfirmed, never sent again by itself', async () => {
    const { accountId, channelId } = await xChannel('xdropped');
    x.faults.inject({ kind: 'drop' }, { method: 'POST', path: '/2/tweets' });
    const { postId } = await insertPost(database.db, {
      accountId,
      content: 'Maybe posted',
      targets: [{ channelId }],
    });
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('failed');
    expect((await targetsOf(database.db, postId))[0]).toMatchObject({
      status: 'unconfirmed',
      attempts: 1,
      error: { code: 'unconfirmed', retryable: false },
    });
    // Several sweeps later, still one request.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const tweets = x.received.filter((r) => r.method === 'POST' && r.url === '/2/tweets');
    expect(tweets.filter((r) => r.body.includes('Maybe posted'))).toHaveLength(1);
  });

  it('token_expired: refreshed once, the rotated tokens stored sealed, then published', async () => {
    const user = await xChannel('xexpired');
    x.expire(user.token);
    const { postId } = await insertPost(database.db, {
      accountId: user.accountId,
      content: 'After a refresh',
      targets: [{ channelId: user.channelId }],
    });
    await settled(postId);
    expect(await postStatus(database.db, postId)).toBe('published');
    expect((await targetsOf(database.db, postId))[0]?.attempts).toBe(1);
    const connection = await connectionOf(user.accountId, 'x');
    const [channel] = await database.db
      .select()
      .from(channels)
      .where(eq(channels.id, user.channelId));
    expect(connection?.credentials).not.toContain(user.refreshToken);
    const stored = channel && connection ? publishingCredentials(channel, connection) : null;
    expect(stored?.source).toBe('connection');
    expect(stored?.credentials.accessToken).not.toBe(user.token);
    expect(stored?.credentials.refreshToken).toBeTruthy();
    expect(stored?.credentials.refreshToken).not.toBe(user.refreshToken);
  });

  it('refreshes tokens about to expire ahead of time, once per connection', async () => {
    const user = await xChannel('xahead', new Date(Date.now() + 60_000));
    const later = await xChannel('xlater', new Date(Date.now() + 86_400_000));
    const refreshes = () =>
      x.received.filter((r) => r.url === '/2/oauth2/token' && r.body.includes('refresh_token'))
        .length;
    const before = refreshes();
    expect(
      await refreshExpiringCredentials({ db: database.db, aheadMs: 15 * 60_000 }),
    ).toBeGreaterThanOrEqual(1);
    expect(refreshes() - before).toBe(1);
    const ahead = await connectionOf(user.accountId, 'x');
    expect(ahead?.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 15 * 60_000);
    expect((await connectionOf(later.accountId, 'x'))?.credentials).toBeTruthy();
    // Its new refresh token works: the one X rotated in was stored.
    expect(
      await refreshExpiringCredentials({ db: database.db, aheadMs: 365 * 86_400_000 }),
    ).toBeGreaterThanOrEqual(2);
  });
});

describe('networks apart', () => {
  it('a slow network holds up only its own targets', async () => {
    const slow = await mastodonChannel('slowmasto');
    const fast = await xChannel('fastx');
    // As many slow targets as a worker sends to one network at once: in a queue shared by the
    // networks they would take every loop until Mastodon answers.
    const count = timing.concurrency;
    mastodon.faults.inject(
      { kind: 'slow', ms: 5_000 },
      { times: count, method: 'POST', path: '/api/v1/statuses' },
    );
    const post = (
      channel: { accountId: string; channelId: string },
      content: string,
      scheduledAt?: Date,
    ) =>
      insertPost(database.db, {
        accountId: channel.accountId,
        content,
        targets: [{ channelId: channel.channelId }],
        scheduledAt,
      });
    const statuses = async (list: { postId: string }[]) =>
      Promise.all(list.map(({ postId }) => targetsOf(database.db, postId))).then((targets) =>
        targets.flat().map((target) => target.status),
      );
    // All due at one instant, so that one run of the scheduler queues them together and the
    // worker's loops take them all at once: posts falling due across two runs could leave a
    // loop waiting on a first, partial batch while the rest queue behind it (seen on a loaded
    // machine: never all of them on their way at once).
    const dueAt = new Date(Date.now() + 2_000);
    const onMastodon = await Promise.all(
      Array.from({ length: count }, (_, i) => post(slow, `Slow ${i}`, dueAt)),
    );
    await until(
      async () => (await statuses(onMastodon)).every((status) => status === 'publishing'),
      'the Mastodon targets to be on their way',
    );
    const onX = await Promise.all(Array.from({ length: 4 }, (_, i) => post(fast, `Fast ${i}`)));
    await until(
      async () => (await statuses(onX)).every((status) => status === 'published'),
      'the X targets',
    );
    // Out while Mastodon has answered none of its own.
    expect(await statuses(onMastodon)).toEqual(Array(count).fill('publishing'));
    await until(
      async () => (await statuses(onMastodon)).every((status) => status === 'published'),
      'the Mastodon targets',
    );
  });

  it("a slow target holds only its own slot: its network's next targets go out beside it", async () => {
    const slowInstance = await mastodonChannel('slowinstance');
    const others = await mastodonChannel('otherinstance');
    mastodon.faults.inject(
      { kind: 'slow', ms: 8_000 },
      { times: 2, method: 'POST', path: '/api/v1/statuses' },
    );
    const post = (channel: { accountId: string; channelId: string }, content: string) =>
      insertPost(database.db, {
        accountId: channel.accountId,
        content,
        targets: [{ channelId: channel.channelId }],
      });
    // Two slow targets, each falling due alone, so that each is fetched on its own: a worker
    // that waited for a whole fetch before the next would have nothing left to take the rest.
    const slow = [];
    for (const content of ['Slow first', 'Slow second']) {
      slow.push(await post(slowInstance, content));
      await until(async () => statusesWith(content).length === 1, `"${content}" to be sent`);
    }
    const fast = await Promise.all(
      ['Fast 1', 'Fast 2', 'Fast 3'].map((content) => post(others, content)),
    );
    await until(
      async () =>
        (await Promise.all(fast.map(({ postId }) => postStatus(database.db, postId)))).every(
          (status) => status === 'published',
        ),
      'the Mastodon targets behind the slow ones',
    );
    // Out while neither slow target has had its answer.
    for (const { postId } of slow) {
      expect((await targetsOf(database.db, postId)).map((target) => target.status)).toEqual([
        'publishing',
      ]);
    }
    for (const { postId } of slow) await settled(postId);
    for (const { postId } of slow) expect(await postStatus(database.db, postId)).toBe('published');
  });
});
