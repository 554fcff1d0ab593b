import { integrationConnections } from '@chorus/db';
import { publishTarget } from '@chorus/services';
import { mastodonFaults, startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness';
import { operatorLog } from './operator-log';
import { createPost, eventsOf } from './posts-fixtures';

/**
 * Links a network gives (a post's `url`, a channel's avatar) are kept only when they are
 * absolute http(s) URLs (docs/publishing.md): a Mastodon answering `javascript:` links has
 * them stored and served as null, in the API and in the events' payloads alike.
 */

let h: Harness;
let mastodon: MastodonStandIn;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'd'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  mastodon = await startMastodonStandIn();
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  await mastodon?.close();
});

beforeEach(async () => {
  await h.db.delete(integrationConnections);
});

afterEach(() => {
  mastodon.faults.clear();
  vi.restoreAllMocks();
});

const SCRIPT = 'javascript:alert(document.domain)';

/** A status as Mastodon answers it, at a link of the test's choosing. */
const status = (
  id: string,
  url: string | null,
  uri = `${mastodon.url}/users/alice/statuses/${id}`,
) => ({
  kind: 'answer' as const,
  answer: {
    status: 200,
    body: { id, uri, url, favourites_count: 0, reblogs_count: 0, replies_count: 0 },
  },
});

async function connect() {
  const connected = await h.call('POST', '/api/integrations/connect/mastodon', {
    body: { apiKey: mastodon.token, serviceUrl: mastodon.url },
  });
  expect(connected.status).toBe(201);
  const { json } = await h.call('GET', '/api/content/channels?integrationId=mastodon');
  return json.data[0] as { id: string; avatarUrl: string | null };
}

async function published(body: Record<string, unknown>) {
  const channel = await connect();
  const post = await createPost(h, {
    title: 'Links',
    content: 'Hello',
    status: 'published',
    targets: [{ channelId: channel.id, ...body }],
  });
  const targetId = (post.targets as { id: string }[])[0]?.id ?? '';
  const result = await publishTarget({ db: h.db }, targetId);
  const { json } = await h.call('GET', `/api/content/posts/${post.id}`);
  return { result, post: json.data, events: await eventsOf(h, post.id) };
}

describe('links from a network', () => {
  it('stores no avatar that is not an http(s) URL, and lists the channel without it', async () => {
    const log = operatorLog();
    mastodon.faults.inject(
      {
        kind: 'answer',
        answer: {
          status: 200,
          body: { id: mastodon.accountId, username: 'alice', avatar: 'javascript:alert(4)' },
        },
      },
      { method: 'GET', path: '/api/v1/accounts/verify_credentials' },
    );
    expect((await connect()).avatarUrl).toBeNull();
    expect(log).toContainEqual(
      expect.objectContaining({ msg: 'network link dropped', link: 'javascript:alert(4)' }),
    );
    // Connecting again with a real avatar keeps that one.
    expect((await connect()).avatarUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/avatars\//);
  });

  it('keeps no post url that is not an http(s) URL, in the API or the events', async () => {
    const log = operatorLog();
    mastodon.faults.inject(status('900001', SCRIPT), { method: 'POST', path: '/api/v1/statuses' });
    const { result, post, events } = await published({});
    expect(result).toBe('published');
    expect(post.targets[0]).toMatchObject({ status: 'published', externalId: '900001', url: null });
    const sent = events.find((event) => event.type === 'post.published');
    const object = sent?.data.object as { targets: Record<string, unknown>[] } | undefined;
    expect(object?.targets[0]).toMatchObject({ externalId: '900001', url: null });
    expect(JSON.stringify(events)).not.toContain('javascript:');
    expect(log).toContainEqual(
      expect.objectContaining({ msg: 'network link dropped', targetId: post.targets[0].id }),
    );
  });

  it('falls back to no link, not to a status uri that is not one either', async () => {
    mastodon.faults.inject(status('900002', null, 'data:text/html,<script>alert(1)</script>'), {
      method: 'POST',
      path: '/api/v1/statuses',
    });
    const { post } = await published({});
    expect(post.targets[0]).toMatchObject({ status: 'published', url: null });
  });

  it('links a failed thread to its live head only by an http(s) URL', async () => {
    mastodon.faults.inject(status('900003', SCRIPT), { method: 'POST', path: '/api/v1/statuses' });
    mastodon.faults.inject(mastodonFaults.rejected('Validation failed: Text too long'), {
      method: 'POST',
      path: '/api/v1/statuses',
    });
    const { result, post } = await published({ thread: [{ content: 'Second' }] });
    expect(result).toBe('failed');
    expect(post.targets[0]).toMatchObject({ status: 'failed', externalId: '900003', url: null });
  });

  it('keeps an http(s) link as it is', async () => {
    const { post } = await published({});
    expect(post.targets[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/@alice\/\d+$/);
  });
});
