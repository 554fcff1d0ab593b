import { integrationConnections } from '@chorus/db';
import { publishTarget, syncPublishedFigures } from '@chorus/services';
import { startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness';
import { operatorLog } from './operator-log';
import { createPost } from './posts-fixtures';

/**
 * A connection's own server (docs/publishing.md, Channels) is checked at every call, not only
 * at connect: a Mastodon instance on loopback, connected while the deployment allowed private
 * targets, gets nothing once the setting is off (publishing, the analytics sync, the OAuth code
 * exchange, the revocation at disconnect), as a webhook's target would.
 */

let h: Harness;
let mastodon: MastodonStandIn;

const allowPrivate = (allowed: boolean) => {
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = String(allowed);
};

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'c'.repeat(64);
  allowPrivate(true);
  mastodon = await startMastodonStandIn();
  h = await startHarness();
});

afterAll(async () => {
  allowPrivate(true);
  await h?.close();
  await mastodon?.close();
});

beforeEach(async () => {
  allowPrivate(true);
  await h.db.delete(integrationConnections);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Connects the stand-in with its token, as the repro did, and answers the channel's id. */
async function connectedChannel() {
  const connected = await h.call('POST', '/api/integrations/connect/mastodon', {
    body: { apiKey: mastodon.token, serviceUrl: mastodon.url },
  });
  expect(connected.status).toBe(201);
  const { json } = await h.call('GET', '/api/content/channels?integrationId=mastodon');
  return json.data[0].id as string;
}

/** A post published now to the channel: its target is due. */
async function publishNow(channelId: string) {
  const post = await createPost(h, {
    title: 'Refused',
    content: 'Hello from Chorus',
    status: 'published',
    targets: [{ channelId }],
  });
  return { postId: post.id, targetId: (post.targets as { id: string }[])[0]?.id ?? '' };
}

describe('publishing to a server connected while private targets were allowed', () => {
  it('fails the target service_url_refused once they are not, and sends the server nothing', async () => {
    const channelId = await connectedChannel();
    const { postId, targetId } = await publishNow(channelId);
    allowPrivate(false);
    const log = operatorLog();
    const before = mastodon.received.length;

    expect(await publishTarget({ db: h.db }, targetId)).toBe('failed');

    expect(mastodon.received.length).toBe(before);
    expect(mastodon.published()).toEqual([]);
    const { json } = await h.call('GET', `/api/content/posts/${postId}`);
    expect(json.data.status).toBe('failed');
    expect(json.data.targets[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      url: null,
      error: {
        code: 'service_url_refused',
        message: expect.stringContaining('CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS'),
        retryable: true,
      },
    });
    // Not a retry loop: nothing is due again by itself.
    expect(await publishTarget({ db: h.db }, targetId)).toBeNull();
    expect(mastodon.received.length).toBe(before);
    // The operator reads why, with the host, and never the token.
    const line = log.find((entry) => entry.msg === 'publishing attempt failed');
    expect(line).toMatchObject({
      targetId,
      class: 'address_refused',
      detail: expect.stringContaining(`${new URL(mastodon.url).host}: refused`),
    });
    expect(JSON.stringify(log)).not.toContain(mastodon.token);
  });

  it('publishes while they are allowed, then reads no figures from it once they are not', async () => {
    const channelId = await connectedChannel();
    const { targetId } = await publishNow(channelId);
    expect(await publishTarget({ db: h.db }, targetId)).toBe('published');
    expect(await syncPublishedFigures({ db: h.db })).toBe(1);
    allowPrivate(false);
    const before = mastodon.received.length;
    expect(await syncPublishedFigures({ db: h.db })).toBe(0);
    expect(mastodon.received.length).toBe(before);
  });
});

describe('signing in on an instance allowed when the grant started', () => {
  const signIn = async () => {
    const started = await h.call('POST', '/api/integrations/connect/mastodon', {
      body: { serviceUrl: mastodon.url },
    });
    expect(started.status).toBe(200);
    return started.json.authUrl as string;
  };

  /** The browser at the instance's authorize page: where it is sent back, with the code. */
  async function approve(authUrl: string) {
    const atInstance = await fetch(authUrl, { redirect: 'manual' });
    return new Request(atInstance.headers.get('location') ?? '');
  }

  const paths = (from: number) => mastodon.received.slice(from).map((r) => r.url.split('?')[0]);

  it('does not exchange the code once private targets are not allowed', async () => {
    const callback = await approve(await signIn());
    allowPrivate(false);
    const before = mastodon.received.length;
    const landed = await h.handle(callback);
    expect(landed.status).toBe(302);
    const back = new URL(landed.headers.get('location') ?? '');
    expect(back.searchParams.get('status')).toBe('error');
    expect(back.searchParams.get('error')).toBe('service_url_refused');
    expect(paths(before)).toEqual([]);
    expect(await h.db.select().from(integrationConnections)).toEqual([]);
  });

  it('does not call the instance to revoke at disconnect once they are not', async () => {
    const known = new Set(mastodon.grants().map((g) => g.token));
    const landed = await h.handle(await approve(await signIn()));
    expect(new URL(landed.headers.get('location') ?? '').searchParams.get('status')).toBe(
      'connected',
    );
    allowPrivate(false);
    const before = mastodon.received.length;
    expect((await h.call('DELETE', '/api/integrations/disconnect/mastodon')).status).toBe(200);
    expect(paths(before)).toEqual([]);
    const issued = mastodon.grants().filter((g) => !known.has(g.token));
    expect(issued).toEqual([expect.objectContaining({ revoked: false })]);
  });
});
