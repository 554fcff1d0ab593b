import {
  facebookFaults,
  graphFaults,
  startFacebook,
  startMediaHost,
  type FacebookStandIn,
} from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderContext } from '../../src/publishing';
import { sendStreamed } from './harness';
import { jpeg, mp4, png, provider, publishRequest, refusingUrl, rejection } from './meta-fixtures';

/** Facebook Pages against the stand-in that follows the Pages API. */
const facebook = provider('facebook');
let fb: FacebookStandIn;
let media: Awaited<ReturnType<typeof startMediaHost>>;
let context: ProviderContext;
const pageToken = 'page-token-1';

const channel = () => ({ externalId: '501', credentials: { accessToken: pageToken } });
const uploads = () => fb.received.filter((r) => r.method === 'POST' && r.url.includes('/photos'));

beforeAll(async () => {
  fb = await startFacebook({ app: { id: 'app-1', secret: 'secret-1' } });
  media = await startMediaHost();
  context = { apiUrl: `${fb.url}/v21.0` };
  fb.addUser({
    token: 'user-token',
    pages: [
      { id: '501', name: 'Chorus Cafe', username: 'choruscafe', token: pageToken },
      { id: '502', name: 'Analytics only', token: 'page-token-2', tasks: ['ANALYZE'] },
    ],
  });
});
afterAll(async () => {
  await fb.close();
  await media.close();
});

describe('facebook.discoverChannels', () => {
  it("lists the login's Pages it may publish to, each with its own Page token", async () => {
    const channels = await facebook.discoverChannels({ accessToken: 'user-token' }, context);
    expect(channels).toEqual([
      {
        externalId: '501',
        name: 'Chorus Cafe',
        handle: 'choruscafe',
        avatarUrl: 'https://scontent.example/501.jpg',
        kind: 'page',
        credentials: { accessToken: pageToken },
      },
    ]);
  });

  it('trades a short-lived user token for a long-lived one first, and follows the paging', async () => {
    const pages = Array.from({ length: 130 }, (_, i) => ({
      id: String(9000 + i),
      name: `Page ${i}`,
      token: `many-${i}`,
    }));
    fb.addUser({ token: 'short-user-token', pages });
    const oauth = {
      tokenUrl: `${fb.url}/v21.0/oauth/access_token`,
      clientId: 'app-1',
      clientSecret: 'secret-1',
    };
    const channels = await facebook.discoverChannels(
      { accessToken: 'short-user-token' },
      { ...context, oauth },
    );
    expect(channels.map((c) => c.externalId)).toEqual(pages.map((p) => p.id));
    const exchange = fb.received.find((r) => r.url.includes('fb_exchange_token'));
    expect(exchange?.url).toContain('fb_exchange_token=short-user-token');
    const listings = fb.received.filter((r) => r.url.includes('/me/accounts'));
    expect(listings.at(-1)?.headers.authorization).toMatch(/^Bearer fb-long-/);
  });
});

describe('facebook.publish', () => {
  it('posts text to the feed, with its first link as the link, and answers the permalink', async () => {
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'New menu: https://chorus.example/menu today', media: [] }],
    });
    const published = await facebook.publish(request, context);
    const post = fb.posts.at(-1);
    expect(post).toMatchObject({
      pageId: '501',
      message: 'New menu: https://chorus.example/menu today',
      link: 'https://chorus.example/menu',
    });
    expect(published).toEqual({
      externalId: post?.id,
      url: `https://www.facebook.com/501/posts/${post?.id.split('_')[1]}`,
    });
  });

  it('uploads one photo as a multipart stream, with its alt text and caption', async () => {
    const photo = media.add(jpeg(50_000), { mimeType: 'image/jpeg', altText: 'A loaf' });
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Bread', media: [photo] }],
    });
    const published = await facebook.publish(request, context);
    const post = fb.posts.at(-1);
    expect(post?.id).toBe(published.externalId);
    expect(post?.message).toBe('Bread');
    const uploaded = fb.photos.get(post?.photos[0] ?? '');
    expect(uploaded).toMatchObject({ published: true, bytes: 50_000, altText: 'A loaf' });
    const upload = uploads().at(-1);
    expect(upload?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.headers['content-length']).toBe(String(upload?.body.length));
  });

  it('attaches several photos, uploaded unpublished, to one feed post', async () => {
    const photos = [
      media.add(jpeg(), { mimeType: 'image/jpeg' }),
      media.add(png(), { mimeType: 'image/png', altText: 'Menu' }),
      media.add(jpeg(), { mimeType: 'image/jpeg' }),
    ];
    const before = fb.posts.length;
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Our week', media: photos }],
    });
    const published = await facebook.publish(request, context);
    expect(fb.posts.length).toBe(before + 1);
    const post = fb.posts.at(-1);
    expect(post?.id).toBe(published.externalId);
    expect(post?.photos).toHaveLength(3);
    for (const id of post?.photos ?? []) {
      expect(fb.photos.get(id)).toMatchObject({ published: false, attachedTo: post?.id });
    }
  });

  it('uploads a video with its description, and answers its absolute permalink', async () => {
    const clip = media.add(mp4(8192), { mimeType: 'video/mp4' });
    const { request } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Baking', media: [clip] }],
    });
    const published = await facebook.publish(request, context);
    expect(fb.videos.get(published.externalId)).toMatchObject({
      pageId: '501',
      description: 'Baking',
      bytes: 8192,
      status: 'ready',
    });
    expect(published.url).toBe(`https://www.facebook.com/501/videos/${published.externalId}/`);
  });

  it('streams a video from storage: sent while it is still being read, never held whole', async () => {
    const { sent, sha256 } = await sendStreamed(fb.url, async (apiUrl, video) => {
      const { request } = publishRequest({
        channel: channel(),
        parts: [{ text: 'Big', media: [video] }],
      });
      return (await facebook.publish(request, { apiUrl })).externalId;
    });
    expect(fb.videos.get(sent)).toMatchObject({ bytes: 10 * 1024 * 1024, sha256 });
  });

  it('posts the first comment as the Page, and saves it', async () => {
    const { request, progress } = publishRequest({
      channel: channel(),
      parts: [{ text: 'Question of the day', media: [] }],
      firstComment: 'Answer below!',
    });
    const published = await facebook.publish(request, context);
    const comment = fb.comments.at(-1);
    expect(comment).toMatchObject({
      on: published.externalId,
      message: 'Answer below!',
      fromPage: '501',
    });
    expect(progress()).toEqual({
      post: published.externalId,
      url: published.url,
      comment: comment?.id,
    });
  });
});

describe('facebook retries', () => {
  it('continues from progress: the uploaded photos are attached, nothing sent twice', async () => {
    const photos = [
      media.add(jpeg(), { mimeType: 'image/jpeg' }),
      media.add(jpeg(), { mimeType: 'image/jpeg' }),
    ];
    const first = publishRequest({
      channel: channel(),
      parts: [{ text: 'Retry me', media: photos }],
    });
    fb.faults.inject(graphFaults.unavailable(), { method: 'POST', path: /\/feed$/ });
    const failure = await rejection(facebook.publish(first.request, context));
    expect(facebook.classify(failure).class).toBe('transient');
    expect(first.progress().photos).toHaveLength(2);

    const uploaded = uploads().length;
    const before = fb.posts.length;
    const retry = publishRequest({
      channel: channel(),
      parts: [{ text: 'Retry me', media: photos }],
      progress: first.progress(),
    });
    const published = await facebook.publish(retry.request, context);
    expect(uploads().length).toBe(uploaded);
    expect(fb.posts.length).toBe(before + 1);
    expect(fb.posts.at(-1)?.photos).toEqual(first.progress().photos);
    expect(retry.progress()).toEqual({ post: published.externalId, url: published.url });
  });

  it('after a failed first comment, a retry comments without posting again', async () => {
    const first = publishRequest({
      channel: channel(),
      parts: [{ text: 'Comment retry', media: [] }],
      firstComment: 'Late comment',
    });
    fb.faults.inject(facebookFaults.rateLimited('501'), { path: /\/comments$/ });
    const failure = await rejection(facebook.publish(first.request, context));
    expect(facebook.classify(failure)).toMatchObject({
      class: 'rate_limited',
      retryAfterMs: 120_000,
    });
    const before = fb.posts.length;
    const retry = publishRequest({
      channel: channel(),
      parts: [{ text: 'Comment retry', media: [] }],
      firstComment: 'Late comment',
      progress: first.progress(),
    });
    await facebook.publish(retry.request, context);
    expect(fb.posts.length).toBe(before);
    expect(fb.comments.filter((c) => c.message === 'Late comment')).toHaveLength(1);
  });
});

describe('facebook.classify', () => {
  const attempt = (text: string, files = [] as ReturnType<typeof media.add>[]) =>
    rejection(
      facebook.publish(
        publishRequest({ channel: channel(), parts: [{ text, media: files }] }).request,
        context,
      ),
    );

  it('a throttled Page is rate_limited for as long as the usage header says', async () => {
    fb.faults.inject(facebookFaults.rateLimited('501'));
    expect(facebook.classify(await attempt('throttled'))).toEqual({
      class: 'rate_limited',
      message: 'Page request limit reached',
      retryAfterMs: 120_000,
    });
  });

  it("Meta's temporary codes are transient; so is a connection refused before sending", async () => {
    fb.faults.inject(graphFaults.unavailable());
    expect(facebook.classify(await attempt('down')).class).toBe('transient');
    const refused = await rejection(
      facebook.publish(
        publishRequest({ channel: channel(), parts: [{ text: 'x', media: [] }] }).request,
        {
          apiUrl: await refusingUrl(),
        },
      ),
    );
    expect(facebook.classify(refused).class).toBe('transient');
  });

  it('an answer slower than the attempt allows is an unknown outcome: the post may exist', async () => {
    fb.faults.inject({ kind: 'slow', ms: 300 });
    const before = fb.posts.length;
    const slow = publishRequest({ channel: channel(), parts: [{ text: 'slow', media: [] }] });
    const failure = await rejection(
      facebook.publish(slow.request, { ...context, signal: AbortSignal.timeout(100) }),
    );
    expect(facebook.classify(failure).class).toBe('unknown_outcome');
    expect(fb.posts.length).toBe(before + 1);
  });

  it('a request acted on but never answered is an unknown outcome, except for unpublished photos', async () => {
    const before = fb.posts.length;
    fb.faults.inject({ kind: 'drop' }, { path: /\/feed$/ });
    expect(facebook.classify(await attempt('dropped')).class).toBe('unknown_outcome');
    expect(fb.posts.length).toBe(before + 1);

    fb.faults.inject({ kind: 'drop' }, { path: /\/photos$/ });
    const photos = [
      media.add(jpeg(), { mimeType: 'image/jpeg' }),
      media.add(jpeg(), { mimeType: 'image/jpeg' }),
    ];
    expect(facebook.classify(await attempt('unpublished', photos)).class).toBe('transient');
  });

  it('media storage failing before anything is sent is transient, and nothing is posted', async () => {
    const before = fb.posts.length;
    const broken = {
      ...media.add(jpeg(), { mimeType: 'image/jpeg' }),
      open: async (): Promise<ReadableStream<Uint8Array>> => {
        throw new Error('storage unavailable');
      },
    };
    expect(facebook.classify(await attempt('broken', [broken]))).toEqual({
      class: 'transient',
      message: 'The media could not be read from storage.',
    });
    expect(fb.posts.length).toBe(before);
  });

  it("rejections carry Facebook's own words: a duplicate, a photo over 4 MB", async () => {
    await facebook.publish(
      publishRequest({ channel: channel(), parts: [{ text: 'Same again', media: [] }] }).request,
      context,
    );
    expect(facebook.classify(await attempt('Same again'))).toEqual({
      class: 'rejected',
      message: '(#506) Duplicate status message',
    });
    const big = media.add(jpeg(4 * 1024 * 1024 + 1), { mimeType: 'image/jpeg' });
    expect(facebook.classify(await attempt('too big', [big]))).toEqual({
      class: 'rejected',
      message:
        "Your photos couldn't be uploaded. Photos should be less than 4 MB and saved as JPG, PNG, GIF, TIFF, HEIF or WebP files.",
    });
  });

  it('a Page token that stops working is revoked, whatever the reason (they do not expire)', async () => {
    fb.addUser({ token: 'u-x', pages: [{ id: '777', name: 'X', token: 'page-x' }] });
    const on = (token: string) =>
      rejection(
        facebook.publish(
          publishRequest({
            channel: { externalId: '777', credentials: { accessToken: token } },
            parts: [{ text: 'hi', media: [] }],
          }).request,
          context,
        ),
      );
    fb.endToken('page-x', 'expired');
    expect(facebook.classify(await on('page-x')).class).toBe('revoked');
    fb.addUser({ token: 'u-y', pages: [{ id: '778', name: 'Y', token: 'page-y' }] });
    fb.endToken('page-y', 'password_changed');
    const revoked = facebook.classify(
      await rejection(
        facebook.publish(
          publishRequest({
            channel: { externalId: '778', credentials: { accessToken: 'page-y' } },
            parts: [{ text: 'hi', media: [] }],
          }).request,
          context,
        ),
      ),
    );
    expect(revoked.class).toBe('revoked');
    expect(revoked.message).toMatch(/password was changed/);
  });
});

describe('facebook.refresh and metrics', () => {
  it('refresh trades the user token for a new long-lived one; without our app it refuses', async () => {
    const oauth = {
      tokenUrl: `${fb.url}/v21.0/oauth/access_token`,
      clientId: 'app-1',
      clientSecret: 'secret-1',
    };
    const now = Date.now();
    const fresh = await facebook.refresh({ accessToken: 'user-token' }, { ...context, oauth });
    expect(fresh.accessToken).toMatch(/^fb-long-/);
    expect(Date.parse(fresh.expiresAt ?? '') - now).toBeGreaterThan(59 * 86_400_000);
    await expect(facebook.refresh({ accessToken: 'user-token' }, context)).rejects.toThrow(
      /app credentials/,
    );
  });

  it('reads reactions, comments and shares; videos have no shares; a lost post is left out', async () => {
    const post = await facebook.publish(
      publishRequest({ channel: channel(), parts: [{ text: 'Count me', media: [] }] }).request,
      context,
    );
    const clip = media.add(mp4(), { mimeType: 'video/mp4' });
    const video = await facebook.publish(
      publishRequest({ channel: channel(), parts: [{ text: '', media: [clip] }] }).request,
      context,
    );
    fb.setEngagement(post.externalId, { reactions: 12, comments: 3, shares: 2 });
    fb.setEngagement(video.externalId, { reactions: 5, comments: 1, shares: 0 });
    const figures = await facebook.metrics(
      [post.externalId, video.externalId, '501_404'],
      channel(),
      context,
    );
    expect(Object.fromEntries(figures)).toEqual({
      [post.externalId]: { like: 12, comment: 3, share: 2 },
      [video.externalId]: { like: 5, comment: 1 },
    });
  });
});
