import {
  GraphError,
  graphFaults,
  instagramFaults,
  startInstagram,
  startMediaHost,
  type InstagramStandIn,
} from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderContext, PublishMedia } from '../../src/publishing';
import { jpeg, mp4, png, provider, publishRequest, rejection } from './meta-fixtures';

/** Instagram against the stand-in that follows the Instagram API with Instagram Login. */
const instagram = provider('instagram');
let ig: InstagramStandIn;
let media: Awaited<ReturnType<typeof startMediaHost>>;
let context: ProviderContext;
let account: { id: string; username: string; name: string };

const channel = () => ({ externalId: account.id, credentials: { accessToken: 'ig-token' } });
const post = (
  parts: { text: string; media: PublishMedia[] },
  extra: { firstComment?: string } = {},
) => publishRequest({ channel: channel(), parts: [parts], ...extra });
const image = () => media.add(jpeg(), { mimeType: 'image/jpeg', width: 1080, height: 1350 });
const creations = () => ig.received.filter((r) => r.method === 'POST' && r.url.endsWith('/media'));
/** A media whose signed URL leads nowhere (expired, or storage lost it). */
const gone = (item: PublishMedia): PublishMedia => ({
  ...item,
  signedUrl: async () => `${media.url}/gone`,
});

beforeAll(async () => {
  ig = await startInstagram({ secret: 'ig-secret' });
  media = await startMediaHost();
  context = { apiUrl: `${ig.url}/v21.0` };
  account = ig.addAccount({ token: 'ig-token', username: 'chorus.cafe', name: 'Chorus Cafe' });
});
afterAll(async () => {
  await ig.close();
  await media.close();
});

describe('instagram.discoverChannels', () => {
  it('is the professional account itself', async () => {
    expect(await instagram.discoverChannels({ accessToken: 'ig-token' }, context)).toEqual([
      {
        externalId: account.id,
        name: 'Chorus Cafe',
        handle: '@chorus.cafe',
        avatarUrl: `https://cdn.example/${account.id}.jpg`,
        kind: 'account',
      },
    ]);
  });

  it("trades the OAuth exchange's one-hour token for a sixty-day one, the channel's credentials", async () => {
    ig.addShortLivedToken('ig-short', { ...account, name: 'Chorus Cafe' });
    const oauth = {
      tokenUrl: 'https://api.instagram.com/oauth/access_token',
      clientId: 'c',
      clientSecret: 'ig-secret',
    };
    const now = Date.now();
    const [found] = await instagram.discoverChannels(
      { accessToken: 'ig-short' },
      { ...context, oauth },
    );
    expect(found?.credentials?.accessToken).toMatch(/^ig-long-/);
    expect(Date.parse(found?.credentials?.expiresAt ?? '') - now).toBeGreaterThan(59 * 86_400_000);
    expect(
      ig.received.some((r) => r.url.startsWith('/access_token?grant_type=ig_exchange_token')),
    ).toBe(true);
  });
});

describe('instagram.publish', () => {
  it('publishes one image from its signed URL, which Instagram really fetches, with alt text', async () => {
    const photo = media.add(jpeg(), { mimeType: 'image/jpeg', altText: 'Croissants' });
    const { request, progress } = post({ text: 'Morning #bakery', media: [photo] });
    const published = await instagram.publish(request, context);
    const item = ig.media.at(-1);
    expect(item).toMatchObject({
      id: published.externalId,
      kind: 'IMAGE',
      caption: 'Morning #bakery',
      altTexts: ['Croissants'],
    });
    expect(item?.urls).toEqual([await photo.signedUrl()]);
    expect(media.fetches()).toContain(photo.id);
    expect(published.url).toBe(item?.permalink);
    expect(progress()).toEqual({ media: published.externalId, url: published.url });
  });

  it('publishes a video as a reel, waiting while Instagram processes it', async () => {
    const clip = media.add(mp4(), { mimeType: 'video/mp4' });
    const published = await instagram.publish(
      post({ text: 'Watch', media: [clip] }).request,
      context,
    );
    expect(ig.media.at(-1)).toMatchObject({ id: published.externalId, kind: 'REELS' });
    expect(published.url).toMatch(/instagram\.com\/reel\//);
    const reads = ig.received.filter((r) => r.method === 'GET' && r.url.includes('status_code'));
    expect(reads.length).toBeGreaterThanOrEqual(2);
  });

  it('publishes a carousel of images and a video, each item its own container', async () => {
    const items = [image(), media.add(mp4(), { mimeType: 'video/mp4' }), image()];
    const published = await instagram.publish(
      post({ text: 'Our week', media: items }).request,
      context,
    );
    const item = ig.media.at(-1);
    expect(item).toMatchObject({ id: published.externalId, kind: 'CAROUSEL', caption: 'Our week' });
    expect(item?.urls).toEqual(await Promise.all(items.map((i) => i.signedUrl())));
  });

  it('posts the first comment on the published media', async () => {
    const published = await instagram.publish(
      post({ text: 'Ask us', media: [image()] }, { firstComment: 'Link in bio' }).request,
      context,
    );
    expect(ig.comments.at(-1)).toMatchObject({ on: published.externalId, message: 'Link in bio' });
  });
});

describe('instagram retries', () => {
  it('continue from progress: the containers made are published, none made again', async () => {
    const items = [image(), image()];
    const first = post({ text: 'Retry', media: items });
    ig.faults.inject(graphFaults.unavailable(), { path: /media_publish$/ });
    expect(
      instagram.classify(await rejection(instagram.publish(first.request, context))).class,
    ).toBe('transient');
    expect(first.progress()['post.container']).toEqual(expect.any(String));
    expect(first.progress()['post.children']).toHaveLength(2);

    const made = creations().length;
    const before = ig.media.length;
    const retry = publishRequest({
      channel: channel(),
      parts: [{ text: 'Retry', media: items }],
      progress: first.progress(),
    });
    const published = await instagram.publish(retry.request, context);
    expect(creations().length).toBe(made);
    expect(ig.media.length).toBe(before + 1);
    expect(retry.progress()).toEqual({ media: published.externalId, url: published.url });
  });

  it('a publish acted on but unanswered is an unknown outcome, and a retry never publishes it again', async () => {
    const first = post({ text: 'Dropped', media: [image()] });
    ig.faults.inject({ kind: 'drop' }, { path: /media_publish$/ });
    const failure = await rejection(instagram.publish(first.request, context));
    expect(instagram.classify(failure).class).toBe('unknown_outcome');
    const before = ig.media.length;
    const retry = publishRequest({
      channel: channel(),
      parts: [{ text: 'Dropped', media: [] }],
      progress: first.progress(),
    });
    const again = instagram.classify(await rejection(instagram.publish(retry.request, context)));
    expect(again).toMatchObject({
      class: 'unknown_outcome',
      message: expect.stringMatching(/already published/),
    });
    expect(ig.media.length).toBe(before);
  });

  it('stopped while Instagram processes a reel is transient; the retry waits for the same container', async () => {
    const slow = await startInstagram({ videoPolls: 4 });
    try {
      const owner = slow.addAccount({ token: 'slow', username: 'slow' });
      const clip = media.add(mp4(), { mimeType: 'video/mp4' });
      const ask = (progress = {}) =>
        publishRequest({
          channel: { externalId: owner.id, credentials: { accessToken: 'slow' } },
          parts: [{ text: 'Slow reel', media: [clip] }],
          progress,
        });
      const first = ask();
      const stopped = await rejection(
        instagram.publish(first.request, { apiUrl: slow.url, signal: AbortSignal.timeout(300) }),
      );
      expect(instagram.classify(stopped).class).toBe('transient');
      const container = first.progress()['post.container'];
      expect(container).toEqual(expect.any(String));
      const published = await instagram.publish(ask(first.progress()).request, {
        apiUrl: slow.url,
      });
      expect(slow.containers.get(String(container))?.publishedId).toBe(published.externalId);
      expect(slow.containers.size).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('a container Instagram no longer knows is made again', async () => {
    const retry = publishRequest({
      channel: channel(),
      parts: [{ text: 'Unknown container', media: [image()] }],
      progress: { 'post.container': '1234567890' },
    });
    const published = await instagram.publish(retry.request, context);
    expect(ig.media.at(-1)).toMatchObject({
      id: published.externalId,
      caption: 'Unknown container',
    });
  });

  it('a container that expired (24 hours) is made again', async () => {
    const first = post({ text: 'Later', media: [image()] });
    ig.faults.inject(graphFaults.unavailable(), { path: /media_publish$/ });
    await rejection(instagram.publish(first.request, context));
    ig.expireContainers();
    const made = creations().length;
    const retry = publishRequest({
      channel: channel(),
      parts: [{ text: 'Later', media: [image()] }],
      progress: first.progress(),
    });
    const published = await instagram.publish(retry.request, context);
    expect(creations().length).toBe(made + 1);
    expect(ig.media.at(-1)).toMatchObject({ id: published.externalId, caption: 'Later' });
  });
});

describe('instagram.classify', () => {
  const attempt = (items: PublishMedia[]) =>
    rejection(instagram.publish(post({ text: 'x', media: items }).request, context));

  it('media Instagram cannot use is rejected in its words: a PNG, a URL that fails, a reel it cannot fetch', async () => {
    const disguised = media.add(png(), { mimeType: 'image/jpeg' });
    expect(instagram.classify(await attempt([disguised]))).toEqual({
      class: 'rejected',
      message: 'Only JPEG images can be published.',
    });
    expect(instagram.classify(await attempt([gone(image())]))).toEqual({
      class: 'rejected',
      message: "Media download has failed. The media URI doesn't meet our requirements.",
    });
    const reel = post({ text: 'x', media: [gone(media.add(mp4(), { mimeType: 'video/mp4' }))] });
    const failed = instagram.classify(await rejection(instagram.publish(reel.request, context)));
    expect(failed).toEqual({
      class: 'rejected',
      message: 'Instagram could not process the media: Error: Media download has failed (2207052)',
    });
    expect(reel.progress()['post.container']).toBeUndefined();
  });

  it('a signed URL that cannot be made is transient: nothing reached Instagram', async () => {
    const unsigned = {
      ...image(),
      signedUrl: async (): Promise<string> => {
        throw new Error('signing key missing');
      },
    };
    expect(instagram.classify(await attempt([unsigned])).class).toBe('transient');
  });

  it('throttling is rate_limited for the time the usage header gives; so is the daily publishing limit', async () => {
    ig.faults.inject(instagramFaults.rateLimited());
    expect(instagram.classify(await attempt([image()]))).toMatchObject({
      class: 'rate_limited',
      retryAfterMs: 180_000,
    });
    const capped = await startInstagram({ publishLimit: 0 });
    try {
      const owner = capped.addAccount({ token: 't', username: 'capped' });
      const request = publishRequest({
        channel: { externalId: owner.id, credentials: { accessToken: 't' } },
        parts: [{ text: '', media: [image()] }],
      }).request;
      expect(
        instagram.classify(await rejection(instagram.publish(request, { apiUrl: capped.url }))),
      ).toEqual({
        class: 'rate_limited',
        message:
          'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
      });
    } finally {
      await capped.close();
    }
  });

  it("Instagram's spam guard (code 4, subcode 2207051) is a refusal, not throttling", async () => {
    const message = 'We restrict certain activity to protect our community.';
    ig.faults.inject(
      graphFaults.rejected(
        new GraphError(400, 4, 'Application request limit reached', {
          subcode: 2207051,
          userMessage: message,
        }),
      ),
    );
    expect(instagram.classify(await attempt([image()]))).toEqual({ class: 'rejected', message });
  });

  it('an expired token is token_expired (refreshable); a removed app is revoked', async () => {
    const token = (name: string) => {
      const owner = ig.addAccount({ token: name, username: name });
      return { externalId: owner.id, credentials: { accessToken: name } };
    };
    const expired = token('soon-expired');
    ig.endToken('soon-expired', 'expired');
    const one = publishRequest({
      channel: expired,
      parts: [{ text: '', media: [image()] }],
    }).request;
    expect(instagram.classify(await rejection(instagram.publish(one, context))).class).toBe(
      'token_expired',
    );
    const removed = token('app-removed');
    ig.endToken('app-removed', 'app_removed');
    const two = publishRequest({
      channel: removed,
      parts: [{ text: '', media: [image()] }],
    }).request;
    expect(instagram.classify(await rejection(instagram.publish(two, context))).class).toBe(
      'revoked',
    );
  });
});

describe('instagram.refresh, metrics and validate', () => {
  it('refreshes a long-lived token for sixty more days; a short-lived one cannot be', async () => {
    const fresh = await instagram.refresh({ accessToken: 'ig-token', extra: { a: 'b' } }, context);
    expect(fresh).toMatchObject({
      accessToken: expect.stringMatching(/^ig-long-/),
      extra: { a: 'b' },
    });
    ig.addShortLivedToken('ig-short-2', { ...account, name: 'x' });
    await expect(instagram.refresh({ accessToken: 'ig-short-2' }, context)).rejects.toThrow();
  });

  it('reads views, likes, comments and shares; a lost post is left out', async () => {
    const published = await instagram.publish(
      post({ text: 'Count', media: [image()] }).request,
      context,
    );
    ig.setInsights(published.externalId, { views: 900, likes: 40, comments: 7, shares: 3 });
    const figures = await instagram.metrics([published.externalId, '404404'], channel(), context);
    expect(Object.fromEntries(figures)).toEqual({
      [published.externalId]: { view: 900, like: 40, comment: 7, share: 3 },
    });
  });

  it('refuses images outside 4:5 to 1.91:1 and captions with over 30 hashtags', () => {
    const tall = {
      id: 'm',
      mimeType: 'image/jpeg',
      size: 1,
      width: 1080,
      height: 1920,
      altText: null,
    };
    const square = { ...tall, height: 1080 };
    const tags = Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ');
    expect(instagram.validate({ parts: [{ text: 'fine', media: [square] }] })).toEqual([]);
    expect(
      instagram.validate({ parts: [{ text: tags, media: [square, tall] }] }).map((i) => i.path),
    ).toEqual(['mediaIds[1]', 'content']);
  });
});
