import { createHash } from 'node:crypto';
import {
  mastodonFaults,
  startMastodonStandIn,
  startMediaHost,
  type MastodonStandIn,
} from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exchangeMastodonCode,
  mastodonAuthorizeUrl,
  networkFetch,
  PROVIDERS,
  registerMastodonApp,
  revokeMastodonToken,
  type Provider,
  type ProviderContext,
} from '../../src/publishing';
import { failure, publishRequest, sendStreamed, sha256 } from './harness';

/** The Mastodon provider against the Mastodon stand-in (real HTTP on loopback). */

let standIn: MastodonStandIn;
let media: Awaited<ReturnType<typeof startMediaHost>>;
let context: ProviderContext;
const provider = PROVIDERS.mastodon as Provider;
const channel = () => ({
  externalId: `${standIn.accountId}@mastodon.test`,
  handle: '@alice@mastodon.test',
  credentials: { accessToken: standIn.token },
});

beforeAll(async () => {
  standIn = await startMastodonStandIn({ maxCharacters: 1000, videoSizeLimit: 40 * 1024 * 1024 });
  media = await startMediaHost();
  context = { apiUrl: standIn.url };
});
afterAll(async () => {
  await standIn.close();
  await media.close();
});

const png = (seed: number) =>
  Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * seed) & 0xff));

describe('Mastodon provider', () => {
  it('discovers the account with its instance and the limits the instance sets', async () => {
    const [found, ...others] = await provider.discoverChannels(
      { accessToken: standIn.token },
      context,
    );
    expect(others).toEqual([]);
    expect(found).toMatchObject({
      // The account's id at its instance's domain: an account id is unique only on its instance.
      externalId: `${standIn.accountId}@mastodon.test`,
      name: 'Alice',
      handle: '@alice@mastodon.test',
      kind: 'account',
      limits: { maxLength: 1000, maxMedia: 4 },
    });
    expect(found?.limits?.media).toContainEqual({
      mimeType: 'video/mp4',
      maxBytes: 40 * 1024 * 1024,
    });
    expect(found?.limits?.media).toContainEqual({
      mimeType: 'image/png',
      maxBytes: 16 * 1024 * 1024,
    });
  });

  it("keeps Mastodon's defaults for an instance without /api/v2/instance (before 4.0)", async () => {
    standIn.faults.inject(
      { kind: 'answer', answer: { status: 404, body: { error: 'Record not found' } } },
      { path: '/api/v2/instance' },
    );
    const [found] = await provider.discoverChannels({ accessToken: standIn.token }, context);
    expect(found).toMatchObject({
      externalId: `${standIn.accountId}@127.0.0.1`,
      handle: '@alice@127.0.0.1',
      limits: undefined,
    });
  });

  it('publishes text with an Idempotency-Key derived from the target and the part', async () => {
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Hello from Chorus' }],
    });
    const published = await provider.publish(request, context);
    const status = standIn.published().find((s) => s.id === published.externalId);
    expect(status).toMatchObject({
      text: 'Hello from Chorus',
      idempotencyKey: `${request.targetId}:0`,
    });
    expect(published.url).toBe(`${standIn.url}/@alice/${published.externalId}`);
  });

  it('uploads images with their alt text and attaches them in order', async () => {
    const first = media.add(png(3), { mimeType: 'image/png', altText: 'A red square' });
    const second = media.add(png(5), { mimeType: 'image/png' });
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Two pictures', media: [first, second] }],
    });
    const { externalId } = await provider.publish(request, context);
    const status = standIn.published().find((s) => s.id === externalId);
    expect(status?.media.map((m) => [m.description, m.sha256])).toEqual([
      ['A red square', sha256(png(3))],
      [null, sha256(png(5))],
    ]);
  });

  it('waits for a video to be processed (202, then 206) before posting it', async () => {
    const slow = await startMastodonStandIn({ processingPolls: 1 });
    try {
      const video = media.add(Buffer.alloc(300_000, 7), {
        mimeType: 'video/mp4',
        altText: 'A clip',
      });
      const { request } = publishRequest({
        channel: { ...channel(), credentials: { accessToken: slow.token } },
        parts: [{ text: 'A video', media: [video] }],
      });
      const { externalId } = await provider.publish(request, { apiUrl: slow.url });
      const [status] = slow.published();
      expect(status?.id).toBe(externalId);
      expect(status?.media).toMatchObject([
        { type: 'video', description: 'A clip', size: 300_000 },
      ]);
      expect(slow.received.filter((r) => r.url.startsWith('/api/v1/media/'))).toHaveLength(2);
    } finally {
      await slow.close();
    }
  });

  it('publishes a thread as replies and the first comment as a reply to the first post, saving progress after each', async () => {
    const { request, saved } = publishRequest({
      channel: channel(),
      parts: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
      firstComment: 'a comment',
    });
    const { externalId } = await provider.publish(request, context);
    const byText = new Map(standIn.published().map((s) => [s.text, s]));
    const [one, two, three, comment] = ['one', 'two', 'three', 'a comment'].map((t) =>
      byText.get(t),
    );
    expect(one?.id).toBe(externalId);
    expect([two?.inReplyToId, three?.inReplyToId, comment?.inReplyToId]).toEqual([
      one?.id,
      two?.id,
      one?.id,
    ]);
    expect(comment?.idempotencyKey).toBe(`${request.targetId}:comment`);
    expect(saved.map((p) => p.posted)).toEqual([
      [one?.id],
      [one?.id, two?.id],
      [one?.id, two?.id, three?.id],
      [one?.id, two?.id, three?.id],
    ]);
    expect(saved.at(-1)?.comment).toBe(comment?.id);
  });

  it('continues a thread from its progress after a failure, never posting a part twice', async () => {
    const { request, saved, retry } = publishRequest({
      channel: channel(),
      parts: [{ text: 'resume one' }, { text: 'resume two' }],
    });
    const posts = () =>
      standIn.received.filter((r) => r.method === 'POST' && r.url === '/api/v1/statuses').length;
    const before = posts();
    standIn.faults.inject(mastodonFaults.unavailable(), {
      method: 'POST',
      path: '/api/v1/statuses',
      after: 1,
    });
    const error = await failure(provider.publish(request, context));
    expect(provider.classify(error)).toMatchObject({ class: 'transient' });
    expect(saved.at(-1)?.posted).toHaveLength(1);

    const published = await provider.publish(retry(), context);
    expect(posts() - before).toBe(3);
    const one = standIn.published().filter((s) => s.text === 'resume one');
    const two = standIn.published().filter((s) => s.text === 'resume two');
    expect([one.length, two.length]).toEqual([1, 1]);
    expect(two[0]?.inReplyToId).toBe(one[0]?.id);
    expect(published.externalId).toBe(one[0]?.id);
  });

  it('retries after an unknown outcome onto the status already made (one status)', async () => {
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Sent once, answered never' }],
    });
    standIn.faults.inject({ kind: 'drop' }, { method: 'POST', path: '/api/v1/statuses' });
    const error = await failure(provider.publish(request, context));
    expect(provider.classify(error).class).toBe('unknown_outcome');
    expect(provider.idempotent).toBe(true);

    const published = await provider.publish(request, context);
    const made = standIn.published().filter((s) => s.text === 'Sent once, answered never');
    expect(made).toHaveLength(1);
    expect(published.externalId).toBe(made[0]?.id);
  });

  it("classifies Mastodon's own errors", async () => {
    const classifyRun = async (promise: Promise<unknown>) =>
      provider.classify(await failure(promise));
    const text = (body: string, accessToken = standIn.token) =>
      publishRequest({
        channel: { ...channel(), credentials: { accessToken } },
        parts: [{ text: body }],
      }).request;

    expect(await classifyRun(provider.publish(text('x'.repeat(1001)), context))).toEqual({
      class: 'rejected',
      message: 'Validation failed: Text character limit of 1000 exceeded',
    });
    expect(await classifyRun(provider.publish(text('hello', 'not-a-token'), context))).toEqual({
      class: 'revoked',
      message: 'The access token is invalid',
    });
    const { token } = standIn.addAccount({ username: 'gone' });
    standIn.revoke(token);
    expect(await classifyRun(provider.publish(text('hello', token), context))).toEqual({
      class: 'revoked',
      message: 'The access token was revoked',
    });
    const readOnly = standIn.addAccount({ username: 'reader', scopes: ['read'] });
    expect(await classifyRun(provider.publish(text('hello', readOnly.token), context))).toEqual({
      class: 'revoked',
      message: 'This action is outside the authorized scopes',
    });

    standIn.faults.inject(mastodonFaults.rateLimited(30), { path: '/api/v1/statuses' });
    const limited = await classifyRun(provider.publish(text('later'), context));
    expect(limited.class).toBe('rate_limited');
    expect(limited.retryAfterMs).toBeGreaterThan(25_000);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(30_000);

    standIn.faults.inject(mastodonFaults.unavailable(), { path: '/api/v1/statuses' });
    expect((await classifyRun(provider.publish(text('later'), context))).class).toBe('transient');

    const closed = await startMastodonStandIn();
    await closed.close();
    expect(
      await classifyRun(provider.publish(text('nowhere'), { apiUrl: closed.url })),
    ).toMatchObject({
      class: 'transient',
    });
  });

  it('treats media still processing (422) as transient, as Mastodon asks to try again', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(100)], { type: 'video/mp4' }), 'clip.mp4');
    const auth = { authorization: `Bearer ${standIn.token}` };
    const upload = await networkFetch(`${standIn.url}/api/v2/media`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    const { id } = (await upload.json()) as { id: string };
    const error = await failure(
      networkFetch(`${standIn.url}/api/v1/statuses`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'too soon', media_ids: [id] }),
      }),
    );
    expect(provider.classify(error)).toEqual({
      class: 'transient',
      message: 'Cannot attach files that have not finished processing. Try again in a moment!',
    });
  });

  it('cannot refresh: a Mastodon token that stops working needs a new connection', async () => {
    const error = await failure(provider.refresh({ accessToken: standIn.token }, context));
    expect(provider.classify(error).class).toBe('revoked');
  });

  it("reads a status's favourites, reblogs and replies, leaving out the ones gone", async () => {
    const { request } = publishRequest({ channel: channel(), parts: [{ text: 'measure me' }] });
    const { externalId } = await provider.publish(request, context);
    standIn.engage(externalId, { favourites: 7, reblogs: 2, replies: 3 });
    const figures = await provider.metrics([externalId, '999'], channel(), context);
    expect([...figures]).toEqual([[externalId, { like: 7, share: 2, comment: 3 }]]);

    // Before Mastodon 4.3 there is no batch lookup (404): statuses are read one by one.
    const missing = {
      kind: 'answer',
      answer: { status: 404, body: { error: 'Record not found' } },
    } as const;
    standIn.faults.inject(missing, { method: 'GET', path: '/api/v1/statuses' });
    const oneByOne = await provider.metrics([externalId, '999'], channel(), context);
    expect([...oneByOne]).toEqual([...figures]);
  });

  it('streams media to the instance without reading it whole first', async () => {
    const { sent, sha256: bytes } = await sendStreamed(standIn.url, async (apiUrl, video) => {
      const { request } = publishRequest({
        channel: channel(),
        parts: [{ text: 'streamed', media: [video] }],
      });
      return (await provider.publish(request, { apiUrl })).externalId;
    });
    expect(standIn.published().find((s) => s.id === sent)?.media[0]?.sha256).toBe(bytes);
  });

  it('connects with OAuth: registers an app on the instance, authorizes with PKCE, exchanges the code', async () => {
    const redirectUri = 'https://chorus.test/api/integrations/mastodon/callback';
    const app = await registerMastodonApp(standIn.url, { clientName: 'Chorus', redirectUri });
    const verifier = 'v'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = mastodonAuthorizeUrl(standIn.url, {
      clientId: app.clientId,
      redirectUri,
      state: 'st',
      codeChallenge: challenge,
    });
    expect(new URL(authorize).searchParams.get('scope')).toBe(
      'read:accounts read:statuses write:media write:statuses',
    );
    const approved = await fetch(authorize, { redirect: 'manual' });
    const callback = new URL(approved.headers.get('location') ?? '');
    expect(callback.searchParams.get('state')).toBe('st');
    const code = callback.searchParams.get('code') ?? '';

    const wrong = await failure(
      exchangeMastodonCode(standIn.url, {
        ...app,
        redirectUri,
        code,
        codeVerifier: 'w'.repeat(50),
      }),
    );
    expect(wrong).toMatchObject({ details: { status: 400, body: { error: 'invalid_grant' } } });
    const approvedAgain = new URL(
      (await fetch(authorize, { redirect: 'manual' })).headers.get('location') ?? '',
    );
    const credentials = await exchangeMastodonCode(standIn.url, {
      ...app,
      redirectUri,
      code: approvedAgain.searchParams.get('code') ?? '',
      codeVerifier: verifier,
    });
    const [found] = await provider.discoverChannels(credentials, context);
    expect(found?.handle).toBe('@alice@mastodon.test');

    await revokeMastodonToken(standIn.url, { ...app, token: credentials.accessToken });
    const error = await failure(provider.discoverChannels(credentials, context));
    expect(provider.classify(error).class).toBe('revoked');
  });
});
