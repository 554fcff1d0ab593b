import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMediaHost, startThreads, type ThreadsStandIn } from '../src';

/**
 * Meta publishes no client library for the Threads API, so the Threads stand-in is checked
 * here with plain HTTP calls shaped exactly as the Threads documentation's examples (curl with
 * query parameters and `access_token`): a text post, a reply to it, and a container whose media
 * cannot be fetched ending in ERROR with the troubleshooting guide's message.
 */
let threads: ThreadsStandIn;
let media: Awaited<ReturnType<typeof startMediaHost>>;
let userId: string;

const call = async (method: string, path: string, query: Record<string, string>) => {
  const url = `${threads.url}/v1.0/${path}?${new URLSearchParams({ ...query, access_token: 'th-token' })}`;
  const res = await fetch(url, { method });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  threads = await startThreads();
  media = await startMediaHost();
  ({ id: userId } = threads.addProfile({ token: 'th-token', username: 'chorus' }));
});
afterAll(async () => {
  await threads.close();
  await media.close();
});

describe('the Threads stand-in, called as the documentation shows', () => {
  it('publishes a text post and a reply to it', async () => {
    const container = await call('POST', `${userId}/threads`, { media_type: 'TEXT', text: 'Hi' });
    const post = await call('POST', `${userId}/threads_publish`, {
      creation_id: String(container.body.id),
    });
    const reply = await call('POST', `${userId}/threads`, {
      media_type: 'TEXT',
      text: 'More',
      reply_to_id: String(post.body.id),
    });
    await call('POST', `${userId}/threads_publish`, { creation_id: String(reply.body.id) });
    expect(threads.posts.map((p) => [p.text, p.replyTo])).toEqual([
      ['Hi', undefined],
      ['More', post.body.id],
    ]);
  });

  it('counts emoji as their UTF-8 bytes against the 500-character limit', async () => {
    const over = await call('POST', `${userId}/threads`, {
      media_type: 'TEXT',
      text: '🎉'.repeat(126),
    });
    expect(over).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    const fits = await call('POST', `${userId}/threads`, {
      media_type: 'TEXT',
      text: '🎉'.repeat(125),
    });
    expect(fits.status).toBe(200);
  });

  it('a video it cannot fetch leaves the container in ERROR, with the reason', async () => {
    const container = await call('POST', `${userId}/threads`, {
      media_type: 'VIDEO',
      video_url: `${media.url}/missing.mp4`,
    });
    const status = await call('GET', String(container.body.id), { fields: 'status,error_message' });
    expect(status.body).toEqual({
      id: container.body.id,
      status: 'ERROR',
      error_message: 'FAILED_DOWNLOADING_VIDEO',
    });
  });
});
