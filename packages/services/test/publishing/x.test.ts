import { startMediaHost, startXStandIn, xFaults, type XStandIn } from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS, type Provider, type ProviderContext } from '../../src/publishing';
import { failure, mediaFacts, publishRequest, sendStreamed, sha256 } from './harness';

/** The X provider against the X stand-in (real HTTP on loopback). */

let standIn: XStandIn;
let media: Awaited<ReturnType<typeof startMediaHost>>;
let context: ProviderContext;
const provider = PROVIDERS.x as Provider;
const MiB = 1024 * 1024;

const channel = (accessToken = standIn.token) => ({
  externalId: standIn.userId,
  handle: '@alice',
  credentials: { accessToken },
});
const bytes = (size: number, seed: number) => Buffer.alloc(size, seed);
const posts = () =>
  standIn.received.filter((r) => r.method === 'POST' && r.url === '/2/tweets').length;
const classified = async (promise: Promise<unknown>) => provider.classify(await failure(promise));

beforeAll(async () => {
  standIn = await startXStandIn();
  media = await startMediaHost();
  context = {
    apiUrl: standIn.url,
    oauth: { tokenUrl: `${standIn.url}/2/oauth2/token`, ...standIn.client },
  };
});
afterAll(async () => {
  await standIn.close();
  await media.close();
});

describe('X provider', () => {
  it('discovers the account, with long posts for subscribers', async () => {
    expect(await provider.discoverChannels({ accessToken: standIn.token }, context)).toEqual([
      {
        externalId: standIn.userId,
        name: 'Alice',
        handle: '@alice',
        avatarUrl: expect.stringMatching(/^http/),
        kind: 'account',
        limits: undefined,
      },
    ]);
    const premium = standIn.addUser({ username: 'dora', subscriptionType: 'Premium' });
    const [found] = await provider.discoverChannels({ accessToken: premium.token }, context);
    expect(found?.limits).toEqual({ maxLength: 25_000 });
  });

  it('publishes text and answers where the post is', async () => {
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Hello from Chorus to X' }],
    });
    const published = await provider.publish(request, context);
    expect(published.url).toBe(`https://x.com/alice/status/${published.externalId}`);
    expect(standIn.published().find((t) => t.id === published.externalId)?.text).toBe(
      'Hello from Chorus to X',
    );
  });

  it('uploads images in segments with their alt text, in order', async () => {
    const large = media.add(bytes(4 * MiB + 100, 1), {
      mimeType: 'image/png',
      altText: 'A big picture',
    });
    const small = media.add(bytes(1000, 2), { mimeType: 'image/jpeg' });
    const appendsBefore = standIn.received.filter((r) => r.url.endsWith('/append')).length;
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Two pictures on X', media: [large, small] }],
    });
    const { externalId } = await provider.publish(request, context);
    const post = standIn.published().find((t) => t.id === externalId);
    expect(post?.media.map((m) => [m.category, m.altText, m.sha256])).toEqual([
      ['tweet_image', 'A big picture', sha256(bytes(4 * MiB + 100, 1))],
      ['tweet_image', null, sha256(bytes(1000, 2))],
    ]);
    // 4 MiB segments: two for the large image, one for the small.
    expect(standIn.received.filter((r) => r.url.endsWith('/append')).length - appendsBefore).toBe(
      3,
    );
  });

  it('uploads a GIF and a video as X processes them (STATUS until succeeded)', async () => {
    const slow = await startXStandIn({ processingPolls: 1, checkAfterSecs: 0 });
    try {
      const gif = media.add(bytes(3000, 3), { mimeType: 'image/gif', altText: 'Dancing' });
      const video = media.add(bytes(200_000, 4), { mimeType: 'video/mp4', altText: 'A clip' });
      const { request } = publishRequest({
        channel: { ...channel(slow.token) },
        parts: [
          { text: 'a gif', media: [gif] },
          { text: 'a video', media: [video] },
        ],
      });
      await provider.publish(request, { apiUrl: slow.url });
      const [first, second] = slow.published();
      expect(first?.media).toMatchObject([
        { category: 'tweet_gif', altText: 'Dancing', size: 3000 },
      ]);
      // X documents alt text for images and GIFs; video goes as amplify_video (512 MB).
      expect(second?.media).toMatchObject([
        { category: 'amplify_video', altText: null, size: 200_000 },
      ]);
      expect(slow.received.filter((r) => r.url.includes('command=STATUS'))).toHaveLength(4);
    } finally {
      await slow.close();
    }
  });

  it('refuses a GIF beside other media before anything is sent', () => {
    expect(
      provider.validate({
        parts: [
          { text: 'fine', media: [mediaFacts('image/gif')] },
          { text: 'not fine', media: [mediaFacts('image/gif'), mediaFacts('image/png')] },
        ],
      }),
    ).toEqual([
      { path: 'thread[0].mediaIds', message: 'On X an animated GIF must be the only attachment.' },
    ]);
  });

  it('fails a post whose media X could not process, with its reason', async () => {
    const broken = await startXStandIn({
      processingError: 'Unsupported video codec',
      checkAfterSecs: 0,
    });
    try {
      const video = media.add(bytes(5000, 5), { mimeType: 'video/mp4' });
      const { request } = publishRequest({
        channel: channel(broken.token),
        parts: [{ text: 'v', media: [video] }],
      });
      expect(await classified(provider.publish(request, { apiUrl: broken.url }))).toEqual({
        class: 'rejected',
        message: 'X could not process the media: Unsupported video codec',
      });
      expect(broken.published()).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it('publishes a thread as a reply chain and the first comment as a reply to the first post', async () => {
    const { request, saved } = publishRequest({
      channel: channel(),
      parts: [{ text: 'x thread 1' }, { text: 'x thread 2' }],
      firstComment: 'x first comment',
    });
    const { externalId } = await provider.publish(request, context);
    const byText = new Map(standIn.published().map((t) => [t.text, t]));
    const [one, two, comment] = ['x thread 1', 'x thread 2', 'x first comment'].map((t) =>
      byText.get(t),
    );
    expect(one?.id).toBe(externalId);
    expect([one?.inReplyToId, two?.inReplyToId, comment?.inReplyToId]).toEqual([
      null,
      one?.id,
      one?.id,
    ]);
    expect(saved.at(-1)).toEqual({
      posted: [one?.id, two?.id],
      url: `https://x.com/alice/status/${one?.id}`,
      comment: comment?.id,
    });
  });

  it('continues a thread from its progress after a failure, never posting a part twice', async () => {
    const { request, retry } = publishRequest({
      channel: channel(),
      parts: [{ text: 'x resume 1' }, { text: 'x resume 2' }],
    });
    const before = posts();
    standIn.faults.inject(xFaults.unavailable(), { method: 'POST', path: '/2/tweets', after: 1 });
    expect((await classified(provider.publish(request, context))).class).toBe('transient');
    const { externalId } = await provider.publish(retry(), context);
    expect(posts() - before).toBe(3);
    const made = standIn.published().filter((t) => t.text.startsWith('x resume'));
    expect(made.map((t) => [t.text, t.inReplyToId])).toEqual([
      ['x resume 1', null],
      ['x resume 2', externalId],
    ]);
  });

  it('reports an unknown outcome when the post may have been made, and a safe retry when only an upload was cut', async () => {
    expect(provider.idempotent).toBe(false);
    const { request } = publishRequest({ channel: channel(), parts: [{ text: 'Answered never' }] });
    standIn.faults.inject({ kind: 'drop' }, { method: 'POST', path: '/2/tweets' });
    expect((await classified(provider.publish(request, context))).class).toBe('unknown_outcome');
    // X made the post: a blind retry would be a second one (the engine marks it unconfirmed instead).
    expect(standIn.published().filter((t) => t.text === 'Answered never')).toHaveLength(1);

    const image = media.add(bytes(2000, 6), { mimeType: 'image/png' });
    const cut = publishRequest({
      channel: channel(),
      parts: [{ text: 'Cut during upload', media: [image] }],
    });
    standIn.faults.inject({ kind: 'drop' }, { method: 'POST', path: /\/append$/ });
    expect((await classified(provider.publish(cut.request, context))).class).toBe('transient');
    await provider.publish(cut.retry(), context);
    expect(standIn.published().filter((t) => t.text === 'Cut during upload')).toHaveLength(1);
  });

  it("classifies X's own errors", async () => {
    const text = (body: string, accessToken?: string) =>
      publishRequest({ channel: channel(accessToken), parts: [{ text: body }] }).request;
    await provider.publish(text('Said once'), context);
    expect(await classified(provider.publish(text('Said once'), context))).toEqual({
      class: 'rejected',
      message: 'You are not allowed to create a Tweet with duplicate content.',
    });
    expect(await classified(provider.publish(text('x'.repeat(281)), context))).toEqual({
      class: 'rejected',
      message: expect.stringMatching(/^Your Tweet text is too long/),
    });
    const stale = standIn.addUser({ username: 'erin' });
    standIn.expire(stale.token);
    expect((await classified(provider.publish(text('hi', stale.token), context))).class).toBe(
      'token_expired',
    );

    standIn.faults.inject(xFaults.rateLimited(90), { path: '/2/tweets' });
    const limited = await classified(provider.publish(text('later'), context));
    expect(limited.class).toBe('rate_limited');
    expect(limited.retryAfterMs).toBeGreaterThan(80_000);
    // Reset times are whole epoch seconds.
    expect(limited.retryAfterMs).toBeLessThanOrEqual(91_000);

    // The 24-hour cap ran out: its reset decides, not the 15-minute window's.
    const inSeconds = (s: number) => String(Math.ceil(Date.now() / 1000) + s);
    standIn.faults.inject(
      {
        kind: 'answer',
        answer: {
          status: 429,
          body: {
            title: 'Too Many Requests',
            detail: 'Too Many Requests',
            type: 'about:blank',
            status: 429,
          },
          headers: {
            'x-rate-limit-remaining': '99',
            'x-rate-limit-reset': inSeconds(60),
            'x-user-limit-24hour-remaining': '0',
            'x-user-limit-24hour-reset': inSeconds(3600),
          },
        },
      },
      { path: '/2/tweets' },
    );
    expect(
      (await classified(provider.publish(text('tomorrow'), context))).retryAfterMs,
    ).toBeGreaterThan(3_500_000);

    standIn.faults.inject(xFaults.unavailable(), { path: '/2/tweets' });
    expect((await classified(provider.publish(text('soon'), context))).class).toBe('transient');
    const closed = await startXStandIn();
    await closed.close();
    expect(
      (await classified(provider.publish(text('nowhere'), { apiUrl: closed.url }))).class,
    ).toBe('transient');
  });

  it('refreshes an expired token with the rotating refresh token, and reports a revoked grant', async () => {
    const user = standIn.addUser({ username: 'fred' });
    standIn.expire(user.token);
    const credentials = { accessToken: user.token, refreshToken: user.refreshToken };
    const request = () =>
      publishRequest({
        channel: channel(credentials.accessToken),
        parts: [{ text: `fresh ${Date.now()}` }],
      }).request;
    expect((await classified(provider.publish(request(), context))).class).toBe('token_expired');

    const fresh = await provider.refresh(credentials, context);
    expect(fresh.refreshToken).not.toBe(user.refreshToken);
    expect(Date.parse(fresh.expiresAt ?? '') - Date.now()).toBeGreaterThan(7_000_000);
    await provider.publish({ ...request(), channel: channel(fresh.accessToken) }, context);
    // X's refresh tokens work once.
    expect(await classified(provider.refresh(credentials, context))).toEqual({
      class: 'revoked',
      message: 'Value passed for the token was invalid.',
    });
    standIn.revoke(user.userId);
    expect((await classified(provider.refresh(fresh, context))).class).toBe('revoked');
    expect((await classified(provider.refresh({ accessToken: 'a' }, context))).class).toBe(
      'revoked',
    );
  });

  it('reads likes, reposts and quotes, replies and impressions, leaving out posts gone', async () => {
    const { request } = publishRequest({ channel: channel(), parts: [{ text: 'count me on X' }] });
    const { externalId } = await provider.publish(request, context);
    standIn.engage(externalId, { likes: 10, retweets: 3, quotes: 2, replies: 4, impressions: 500 });
    const figures = await provider.metrics([externalId, '123'], channel(), context);
    expect([...figures]).toEqual([
      [externalId, { like: 10, share: 5, comment: 4, impression: 500 }],
    ]);
  });

  it('streams media to X a segment at a time, never reading it whole first', async () => {
    const { sent, sha256: bytes } = await sendStreamed(standIn.url, async (apiUrl, video) => {
      const { request } = publishRequest({
        channel: channel(),
        parts: [{ text: 'streamed to X', media: [video] }],
      });
      return (await provider.publish(request, { apiUrl })).externalId;
    });
    expect(standIn.published().find((t) => t.id === sent)?.media[0]?.sha256).toBe(bytes);
  });
});
