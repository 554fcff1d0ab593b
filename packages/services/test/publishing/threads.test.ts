import {
  graphFaults,
  startMediaHost,
  startThreads,
  threadsFaults,
  type ThreadsStandIn,
} from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderContext, PublishMedia, PublishPart } from '../../src/publishing';
import { jpeg, mp4, png, provider, publishRequest, rejection } from './meta-fixtures';

/** Threads against the stand-in that follows the Threads API. */
const threads = provider('threads');
let th: ThreadsStandIn;
let media: Awaited<ReturnType<typeof startMediaHost>>;
let context: ProviderContext;
let profile: { id: string; username: string };

const channel = () => ({ externalId: profile.id, credentials: { accessToken: 'th-token' } });
const thread = (parts: PublishPart[], extra: { firstComment?: string } = {}) =>
  publishRequest({ channel: channel(), parts, ...extra });
const image = () => media.add(jpeg(), { mimeType: 'image/jpeg', altText: 'A cake' });
const creations = () =>
  th.received.filter((r) => r.method === 'POST' && r.url.split('?')[0]?.endsWith('/threads'));
const gone = (item: PublishMedia): PublishMedia => ({
  ...item,
  signedUrl: async () => `${media.url}/gone`,
});

beforeAll(async () => {
  th = await startThreads({ secret: 'th-secret' });
  media = await startMediaHost();
  context = { apiUrl: `${th.url}/v1.0` };
  profile = th.addProfile({ token: 'th-token', username: 'chorus', name: 'Chorus' });
});
afterAll(async () => {
  await th.close();
  await media.close();
});

describe('threads.discoverChannels', () => {
  it('is the profile; with our app it trades the one-hour token for a sixty-day one', async () => {
    expect(await threads.discoverChannels({ accessToken: 'th-token' }, context)).toEqual([
      {
        externalId: profile.id,
        name: 'Chorus',
        handle: '@chorus',
        avatarUrl: `https://cdn.example/${profile.id}.jpg`,
        kind: 'profile',
      },
    ]);
    th.addShortLivedToken('th-short', { ...profile, name: 'Chorus' });
    const oauth = {
      tokenUrl: 'https://graph.threads.net/oauth/access_token',
      clientId: 'c',
      clientSecret: 'th-secret',
    };
    const [found] = await threads.discoverChannels(
      { accessToken: 'th-short' },
      { ...context, oauth },
    );
    expect(found?.credentials?.accessToken).toMatch(/^th-long-/);
    expect(
      th.received.some((r) => r.url.startsWith('/access_token?grant_type=th_exchange_token')),
    ).toBe(true);
  });
});

describe('threads.publish', () => {
  it('publishes text, and answers the permalink', async () => {
    const { request, progress } = thread([{ text: 'Hello Threads 🎉', media: [] }]);
    const published = await threads.publish(request, context);
    const post = th.posts.at(-1);
    expect(post).toMatchObject({
      id: published.externalId,
      kind: 'TEXT',
      text: 'Hello Threads 🎉',
    });
    expect(published.url).toBe(post?.permalink);
    // The link is kept too: a first comment failing after it shows it (head).
    expect(progress()).toEqual({ posts: [published.externalId], url: post?.permalink });
  });

  it('publishes an image and a video from signed URLs Threads really fetches, with alt text', async () => {
    const photo = image();
    const one = await threads.publish(thread([{ text: 'Cake', media: [photo] }]).request, context);
    expect(th.posts.at(-1)).toMatchObject({
      id: one.externalId,
      kind: 'IMAGE',
      altTexts: ['A cake'],
    });
    expect(media.fetches()).toContain(photo.id);
    const clip = media.add(mp4(), { mimeType: 'video/mp4' });
    const two = await threads.publish(thread([{ text: '', media: [clip] }]).request, context);
    expect(th.posts.at(-1)).toMatchObject({ id: two.externalId, kind: 'VIDEO', text: '' });
  });

  it('publishes a carousel of images and a video', async () => {
    const items = [
      image(),
      media.add(png(), { mimeType: 'image/png' }),
      media.add(mp4(), { mimeType: 'video/mp4' }),
    ];
    const published = await threads.publish(
      thread([{ text: 'Week', media: items }]).request,
      context,
    );
    const post = th.posts.at(-1);
    expect(post).toMatchObject({ id: published.externalId, kind: 'CAROUSEL', text: 'Week' });
    expect(post?.urls).toEqual(await Promise.all(items.map((i) => i.signedUrl())));
  });

  it('publishes a thread as a chain of replies, and the first comment as a reply to its first post', async () => {
    const { request } = thread(
      [
        { text: '1/3 A thread', media: [] },
        { text: '2/3 With a picture', media: [image()] },
        { text: '3/3 The end', media: [] },
      ],
      { firstComment: 'Questions welcome' },
    );
    const published = await threads.publish(request, context);
    const [first, second, third, comment] = th.posts.slice(-4);
    expect(first).toMatchObject({
      id: published.externalId,
      text: '1/3 A thread',
      replyTo: undefined,
    });
    expect(second).toMatchObject({ text: '2/3 With a picture', replyTo: first?.id, kind: 'IMAGE' });
    expect(third).toMatchObject({ text: '3/3 The end', replyTo: second?.id });
    expect(comment).toMatchObject({ text: 'Questions welcome', replyTo: first?.id });
  });
});

describe('threads retries', () => {
  it('continue a thread from progress: posts already published are not sent again', async () => {
    const parts = [
      { text: 'A', media: [] },
      { text: 'B', media: [] },
      { text: 'C', media: [] },
    ];
    const first = thread(parts);
    th.faults.inject(graphFaults.unavailable(), { path: /threads_publish$/, after: 2 });
    const before = th.posts.length;
    const failed = await rejection(threads.publish(first.request, context));
    expect(threads.classify(failed).class).toBe('transient');
    expect(th.posts.length).toBe(before + 2);
    expect(first.progress()).toEqual({
      posts: th.posts.slice(before).map((p) => p.id),
      'part2.container': expect.any(String),
    });

    const made = creations().length;
    const retry = publishRequest({ channel: channel(), parts, progress: first.progress() });
    const published = await threads.publish(retry.request, context);
    expect(creations().length).toBe(made);
    const chain = th.posts.slice(before);
    expect(chain.map((p) => p.text)).toEqual(['A', 'B', 'C']);
    expect(chain[0]?.id).toBe(published.externalId);
    expect(retry.progress()).toEqual({ posts: chain.map((p) => p.id), url: published.url });
  });

  it('a part published by a dropped request is an unknown outcome; a retry does not publish it twice', async () => {
    const parts = [
      { text: 'Root', media: [] },
      { text: 'Reply', media: [] },
    ];
    const first = thread(parts);
    th.faults.inject({ kind: 'drop' }, { path: /threads_publish$/ });
    const before = th.posts.length;
    expect(threads.classify(await rejection(threads.publish(first.request, context))).class).toBe(
      'unknown_outcome',
    );
    expect(th.posts.length).toBe(before + 1);
    const retry = publishRequest({ channel: channel(), parts, progress: first.progress() });
    const again = threads.classify(await rejection(threads.publish(retry.request, context)));
    expect(again).toMatchObject({
      class: 'unknown_outcome',
      message: expect.stringMatching(/already published/),
    });
    expect(th.posts.length).toBe(before + 1);
  });
});

describe('threads.classify', () => {
  it("is rejected in Threads' words for media it cannot fetch; a video container ends in ERROR", async () => {
    const image = await rejection(
      threads.publish(
        thread([{ text: 'x', media: [gone(media.add(jpeg(), { mimeType: 'image/jpeg' }))] }])
          .request,
        context,
      ),
    );
    expect(threads.classify(image)).toEqual({
      class: 'rejected',
      message: "Media download has failed. The media URI doesn't meet our requirements.",
    });
    const video = await rejection(
      threads.publish(
        thread([{ text: 'x', media: [gone(media.add(mp4(), { mimeType: 'video/mp4' }))] }]).request,
        context,
      ),
    );
    expect(threads.classify(video)).toEqual({
      class: 'rejected',
      message: 'Threads could not process the media: FAILED_DOWNLOADING_VIDEO',
    });
  });

  it('over 500 characters (emoji as bytes) is rejected; throttling is rate_limited', async () => {
    const long = await rejection(
      threads.publish(thread([{ text: '🎉'.repeat(126), media: [] }]).request, context),
    );
    expect(threads.classify(long)).toEqual({
      class: 'rejected',
      message: '(#100) Param text must be at most 500 characters long.',
    });
    th.faults.inject(threadsFaults.rateLimited());
    const throttled = await rejection(
      threads.publish(thread([{ text: 'x', media: [] }]).request, context),
    );
    expect(threads.classify(throttled)).toEqual({
      class: 'rate_limited',
      message: 'Application request limit reached',
    });
  });

  it('an expired token is token_expired; a changed password is revoked; a 5xx is transient', async () => {
    const on = (token: string) => {
      const owner = th.addProfile({ token, username: token });
      return publishRequest({
        channel: { externalId: owner.id, credentials: { accessToken: token } },
        parts: [{ text: 'x', media: [] }],
      }).request;
    };
    const expired = on('old');
    th.endToken('old', 'expired');
    expect(threads.classify(await rejection(threads.publish(expired, context))).class).toBe(
      'token_expired',
    );
    const changed = on('changed');
    th.endToken('changed', 'password_changed');
    expect(threads.classify(await rejection(threads.publish(changed, context))).class).toBe(
      'revoked',
    );
    th.faults.inject(graphFaults.unavailable(), { path: /threads_publish$/ });
    expect(
      threads.classify(
        await rejection(threads.publish(thread([{ text: 'y', media: [] }]).request, context)),
      ).class,
    ).toBe('transient');
    // Making a container shows nothing: even an unanswered one is safe to make again.
    th.faults.inject({ kind: 'drop' }, { path: /\/threads$/ });
    const dropped = await rejection(
      threads.publish(thread([{ text: 'z', media: [] }]).request, context),
    );
    expect(threads.classify(dropped).class).toBe('transient');
  });
});

describe('threads.refresh, metrics and validate', () => {
  it('refreshes a long-lived token with th_refresh_token', async () => {
    const now = Date.now();
    const fresh = await threads.refresh({ accessToken: 'th-token' }, context);
    expect(fresh.accessToken).toMatch(/^th-long-/);
    expect(Date.parse(fresh.expiresAt ?? '') - now).toBeGreaterThan(59 * 86_400_000);
    expect(th.received.at(-1)?.url).toBe(
      `/refresh_access_token?grant_type=th_refresh_token&access_token=th-token`,
    );
  });

  it('reads views, likes, replies and reposts with quotes; a lost post is left out', async () => {
    const published = await threads.publish(
      thread([{ text: 'Count', media: [] }]).request,
      context,
    );
    th.setInsights(published.externalId, {
      views: 500,
      likes: 20,
      replies: 4,
      reposts: 2,
      quotes: 1,
    });
    const figures = await threads.metrics([published.externalId, '404'], channel(), context);
    expect(Object.fromEntries(figures)).toEqual({
      [published.externalId]: { view: 500, like: 20, comment: 4, share: 3 },
    });
  });

  it('refuses images beyond a 10:1 aspect ratio, with the thread part in the path', () => {
    const banner = {
      id: 'm',
      mimeType: 'image/jpeg',
      size: 1,
      width: 4400,
      height: 400,
      altText: null,
    };
    const fine = { ...banner, height: 1000 };
    expect(
      threads.validate({
        parts: [
          { text: 'a', media: [fine] },
          { text: 'b', media: [fine, banner] },
        ],
      }),
    ).toEqual([
      { path: 'thread[0].mediaIds[1]', message: 'Threads takes images up to a 10:1 aspect ratio.' },
    ]);
  });
});
