import { Agent } from 'node:http';
import { connect } from 'node:net';
import { ApiResponseError, TwitterApi } from 'twitter-api-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXStandIn, xFaults, type XStandIn } from '../src';
import { caught } from './caught';

/** The stand-in checked with twitter-api-v2, a real X client library. */

let standIn: XStandIn;

/**
 * twitter-api-v2 always speaks HTTPS to api.x.com; this agent hands it a plain connection to
 * the stand-in instead (the library still sends X's paths, headers and bodies).
 */
function agentTo(url: string): Agent {
  const agent = new Agent();
  Object.assign(agent, {
    protocol: 'https:',
    createConnection: () => connect(Number(new URL(url).port), '127.0.0.1'),
  });
  return agent;
}
const client = (token = standIn.token) =>
  new TwitterApi(token, { httpAgent: agentTo(standIn.url) });

const failed = (promise: Promise<unknown>) => caught(promise, ApiResponseError);

beforeAll(async () => {
  standIn = await startXStandIn();
});
afterAll(() => standIn.close());

describe('X stand-in, checked with twitter-api-v2', () => {
  it('posts, looks the post up with its public metrics, and tells who is signed in', async () => {
    const { data } = await client().v2.tweet('Hello, X');
    expect(data.text).toBe('Hello, X');
    standIn.engage(data.id, { likes: 4, retweets: 2, quotes: 1, replies: 0, impressions: 90 });
    const found = await client().v2.tweets([data.id, '1'], { 'tweet.fields': ['public_metrics'] });
    expect(found.data[0]?.public_metrics).toMatchObject({
      like_count: 4,
      retweet_count: 2,
      quote_count: 1,
      impression_count: 90,
    });
    expect(found.errors?.[0]).toMatchObject({ title: 'Not Found Error', resource_id: '1' });
    const me = await client().v2.me({ 'user.fields': ['profile_image_url'] });
    expect(me.data).toMatchObject({ id: standIn.userId, username: 'alice' });
    expect(me.data.profile_image_url).toMatch(/^http/);
  });

  it('uploads an image in chunks with alt text and a video that is processed, then posts a thread', async () => {
    const image = await client().v2.uploadMedia(Buffer.alloc(3 * 1024 * 1024 + 5, 1), {
      media_type: 'image/png',
    });
    await client().v2.createMediaMetadata(image, { alt_text: { text: 'A grey square' } });
    // The library polls STATUS (check_after_secs) until the video is processed.
    const video = await client().v2.uploadMedia(Buffer.alloc(2048, 2), { media_type: 'video/mp4' });
    const [first, second] = await client().v2.tweetThread([
      { text: 'thread 1', media: { media_ids: [image] } },
      { text: 'thread 2', media: { media_ids: [video] } },
    ]);
    const published = standIn.published();
    const one = published.find((t) => t.id === first?.data.id);
    const two = published.find((t) => t.id === second?.data.id);
    expect(one?.media).toMatchObject([
      { size: 3 * 1024 * 1024 + 5, altText: 'A grey square', category: 'tweet_image' },
    ]);
    expect(two).toMatchObject({
      inReplyToId: one?.id,
      media: [{ category: 'tweet_video', size: 2048 }],
    });
  });

  it("surfaces X's errors as the library reads them", async () => {
    await client().v2.tweet('Same words');
    const duplicate = await failed(client().v2.tweet('Same words'));
    expect(duplicate.code).toBe(403);
    expect(duplicate.data).toMatchObject({
      detail: 'You are not allowed to create a Tweet with duplicate content.',
      title: 'Forbidden',
    });

    const long = await failed(client().v2.tweet('x'.repeat(281)));
    expect(long.code).toBe(400);
    expect(long.data.errors?.[0]).toMatchObject({
      message: expect.stringContaining('Your Tweet text is too long'),
    });
    // URLs count 23 whatever their length.
    await client().v2.tweet(`${'y'.repeat(250)} https://example.com/${'a'.repeat(100)}`);

    standIn.faults.inject(xFaults.rateLimited(120), { path: '/2/tweets' });
    const limited = await failed(client().v2.tweet('later'));
    expect(limited.rateLimitError).toBe(true);
    expect((limited.rateLimit?.reset ?? 0) * 1000 - Date.now()).toBeGreaterThan(100_000);

    const expired = standIn.addUser({ username: 'bob' });
    standIn.expire(expired.token);
    expect((await failed(client(expired.token).v2.tweet('hi'))).code).toBe(401);
  });

  it('refreshes with a refresh token that then stops working, and refuses a revoked one', async () => {
    const user = standIn.addUser({ username: 'carol' });
    const app = new TwitterApi(
      { clientId: standIn.client.clientId, clientSecret: standIn.client.clientSecret },
      { httpAgent: agentTo(standIn.url) },
    );
    const refreshed = await app.refreshOAuth2Token(user.refreshToken);
    expect(refreshed.refreshToken).not.toBe(user.refreshToken);
    expect((await refreshed.client.v2.me()).data.username).toBe('carol');
    const reused = await failed(app.refreshOAuth2Token(user.refreshToken));
    expect(reused.code).toBe(400);
    expect(reused.data).toMatchObject({
      error: 'invalid_request',
      error_description: 'Value passed for the token was invalid.',
    });
    standIn.revoke(user.userId);
    expect((await failed(app.refreshOAuth2Token(refreshed.refreshToken ?? ''))).code).toBe(400);
  });
});
