import { createOAuthAPIClient, createRestAPIClient, MastoHttpError } from 'masto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mastodonFaults, startMastodonStandIn, type MastodonStandIn } from '../src';
import { caught } from './caught';

/** The stand-in checked with masto, a real Mastodon client library: it must accept what masto sends and answer what masto expects. */

let standIn: MastodonStandIn;
const client = () => createRestAPIClient({ url: standIn.url, accessToken: standIn.token });

const failed = (promise: Promise<unknown>) => caught(promise, MastoHttpError);

beforeAll(async () => {
  standIn = await startMastodonStandIn({ maxCharacters: 100 });
});
afterAll(() => standIn.close());

describe('Mastodon stand-in, checked with masto', () => {
  it('posts a status and answers the same status to a repeated Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': 'key-1' };
    const first = await client().v1.statuses.create(
      { status: 'Hello, fediverse' },
      { requestInit: { headers } },
    );
    const again = await client().v1.statuses.create(
      { status: 'Hello, fediverse' },
      { requestInit: { headers } },
    );
    expect(again.id).toBe(first.id);
    expect(first.url).toBe(`${standIn.url}/@alice/${first.id}`);
    expect(first.content).toBe('<p>Hello, fediverse</p>');
    expect(standIn.published().filter((status) => status.idempotencyKey === 'key-1')).toHaveLength(
      1,
    );
  });

  it('uploads an image with its description and a video processed asynchronously, then attaches both kinds', async () => {
    const image = await client().v2.media.create({
      file: new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }),
      description: 'Three bytes',
    });
    expect(image).toMatchObject({ type: 'image', description: 'Three bytes' });
    expect(image.url).toMatch(/\/original$/);
    // masto polls GET /api/v1/media/:id until its url is set (206 until then).
    const video = await client().v2.media.create({
      file: new Blob([new Uint8Array(64)], { type: 'video/mp4' }),
    });
    expect(video.type).toBe('video');
    expect(video.url).not.toBeNull();

    const mixed = await failed(
      client().v1.statuses.create({ status: 'both', mediaIds: [image.id, video.id] }),
    );
    expect(mixed.statusCode).toBe(422);
    expect(mixed.message).toBe('Cannot attach a video to a post that already contains images');
    const post = await client().v1.statuses.create({ status: 'a picture', mediaIds: [image.id] });
    expect(post.mediaAttachments.map((media) => media.id)).toEqual([image.id]);
  });

  it('posts a reply in a thread and counts it on its parent', async () => {
    const parent = await client().v1.statuses.create({ status: 'first' });
    const reply = await client().v1.statuses.create({ status: 'second', inReplyToId: parent.id });
    expect(reply.inReplyToId).toBe(parent.id);
    const fetched = await client().v1.statuses.$select(parent.id).fetch();
    expect(fetched.repliesCount).toBe(1);
    const missing = await failed(client().v1.statuses.create({ status: 'x', inReplyToId: '1' }));
    expect(missing.statusCode).toBe(404);
  });

  it("surfaces Mastodon's errors as masto reads them", async () => {
    const blank = await failed(client().v1.statuses.create({ status: '' }));
    expect([blank.statusCode, blank.message]).toEqual([
      422,
      "Validation failed: Text can't be blank",
    ]);
    const long = await failed(client().v1.statuses.create({ status: 'x'.repeat(101) }));
    expect(long.message).toBe('Validation failed: Text character limit of 100 exceeded');
    // A URL counts 23 whatever its length.
    await client().v1.statuses.create({
      status: `${'x'.repeat(70)} https://example.com/${'a'.repeat(80)}`,
    });

    const stranger = createRestAPIClient({ url: standIn.url, accessToken: 'nope' });
    const invalid = await failed(stranger.v1.accounts.verifyCredentials());
    expect([invalid.statusCode, invalid.message]).toEqual([401, 'The access token is invalid']);
    const { token } = standIn.addAccount({ username: 'bob' });
    standIn.revoke(token);
    const revoked = await failed(
      createRestAPIClient({ url: standIn.url, accessToken: token }).v1.accounts.verifyCredentials(),
    );
    expect(revoked.message).toBe('The access token was revoked');

    standIn.faults.inject(mastodonFaults.rateLimited(30), { path: '/api/v1/statuses' });
    const limited = await failed(client().v1.statuses.create({ status: 'later' }));
    expect(limited.statusCode).toBe(429);
    const reset = (limited.cause as Response).headers.get('x-ratelimit-reset');
    expect(Date.parse(reset ?? '') - Date.now()).toBeGreaterThan(20_000);
  });

  it('sends rate-limit headers and answers 429 once the window is used up', async () => {
    const small = await startMastodonStandIn({ rateLimit: { limit: 2, windowMs: 60_000 } });
    try {
      const api = createRestAPIClient({ url: small.url, accessToken: small.token });
      await api.v1.accounts.verifyCredentials();
      await api.v1.accounts.verifyCredentials();
      const limited = await failed(api.v1.accounts.verifyCredentials());
      expect([limited.statusCode, limited.message]).toEqual([429, 'Too many requests']);
      expect((limited.cause as Response).headers.get('x-ratelimit-remaining')).toBe('0');
    } finally {
      await small.close();
    }
  });

  it('registers an app, authorizes with PKCE-less code flow and issues a token that works', async () => {
    const app = await client().v1.apps.create({
      clientName: 'Chorus',
      redirectUris: 'https://chorus.test/callback',
      scopes: 'read write',
    });
    const authorize = new URL('/oauth/authorize', standIn.url);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: app.clientId ?? '',
      redirect_uri: 'https://chorus.test/callback',
      scope: 'read write',
      state: 'xyz',
    })) {
      authorize.searchParams.set(name, value);
    }
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(redirect.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe('xyz');
    const oauth = createOAuthAPIClient({ url: standIn.url });
    const token = await oauth.token.create({
      grantType: 'authorization_code',
      clientId: app.clientId ?? '',
      clientSecret: app.clientSecret ?? '',
      redirectUri: 'https://chorus.test/callback',
      code: back.searchParams.get('code') ?? '',
    });
    const me = await createRestAPIClient({
      url: standIn.url,
      accessToken: token.accessToken,
    }).v1.accounts.verifyCredentials();
    expect(me.username).toBe('alice');
    const reused = await failed(
      oauth.token.create({
        grantType: 'authorization_code',
        clientId: app.clientId ?? '',
        clientSecret: app.clientSecret ?? '',
        redirectUri: 'https://chorus.test/callback',
        code: back.searchParams.get('code') ?? '',
      }),
    );
    expect([reused.statusCode, reused.message]).toEqual([400, 'invalid_grant']);
  });

  it('describes the instance and its limits', async () => {
    const instance = await client().v2.instance.fetch();
    expect(instance.domain).toBe('mastodon.test');
    expect(instance.configuration.statuses.maxCharacters).toBe(100);
    expect(instance.configuration.mediaAttachments.videoSizeLimit).toBe(99 * 1024 * 1024);
  });
});
