import { channels, eq, integrationConnections, posts, retiredChannels } from '@chorus/db';
import {
  publishDuePosts,
  publishingCredentials,
  publishTarget,
  syncPublishedFigures,
} from '@chorus/services';
import { startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelIdsOn, connectMastodonTo, disconnectFrom } from './connection-fixtures';
import { startHarness, type Harness } from './harness';
import { createPost, inAnHour } from './posts-fixtures';
import { startStandInProvider, type StandInProvider } from './stand-in-provider';
import { channelOf, setTarget } from './targets-fixtures';

/**
 * A channel that goes away and comes back (docs/publishing.md, Channels): disconnecting and
 * connecting the same network account again, or a Page taken out of a grant and put back,
 * gives the channel its old id, so a published target's channel is that channel again and a
 * post can never be sent twice to one network account through a "new" channel.
 */

let h: Harness;
let mastodon: MastodonStandIn;
let facebook: StandInProvider;
const profile = {
  name: 'Acme Social',
  accounts: { data: [{ name: 'Acme News' }, { name: 'Acme Deals' }] },
};

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'd'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  mastodon = await startMastodonStandIn();
  facebook = await startStandInProvider({
    clientId: 'chorus-client',
    clientSecret: 'stand-in-secret',
    profile,
  });
  Object.assign(process.env, facebook.env('CHORUS_INTEGRATION_FACEBOOK_'));
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  await mastodon?.close();
  await facebook?.close();
});

beforeEach(async () => {
  await h.db.delete(integrationConnections);
  await h.db.delete(retiredChannels);
});

type Answered = { id: string; channelId: string; status: string };

const connectMastodon = (token?: string) => connectMastodonTo(h, mastodon, token);
const disconnect = (integrationId: string, token?: string) =>
  disconnectFrom(h, integrationId, token);
const channelIds = (integrationId: string, token?: string) => channelIdsOn(h, integrationId, token);
const put = (id: string, body: Record<string, unknown>) =>
  h.call('PUT', `/api/content/posts/${id}`, { body });
const statusesSent = () => mastodon.published().length;

describe('disconnecting and connecting the same Mastodon account again', () => {
  it('gives the channel its id back: the published target’s channel is listed again', async () => {
    await connectMastodon();
    const [before] = await channelIds('mastodon');
    const post = await createPost(h, {
      title: 'Once',
      content: 'Hello, once',
      status: 'published',
      targets: [{ channelId: before }],
    });
    const [target] = post.targets as Answered[];
    expect(await publishTarget({ db: h.db }, target?.id ?? '')).toBe('published');

    await disconnect('mastodon');
    expect(await channelIds('mastodon')).toEqual([]);
    // While disconnected, its figures are not read (nothing to read them with).
    expect(await syncPublishedFigures({ db: h.db })).toBe(0);
    await connectMastodon();

    expect(await channelIds('mastodon')).toEqual([before]);
    // The published target's channel is there again: its figures are read again.
    expect(await syncPublishedFigures({ db: h.db })).toBe(1);
  });

  it('never sends a post a second time to the account through the channel it comes back as', async () => {
    await connectMastodon();
    const [first] = await channelIds('mastodon');
    const x = await channelOf(h, h.main.accountId, 'x');
    const post = await createPost(h, {
      title: 'Twice?',
      content: 'Hello, fediverse',
      status: 'published',
      targets: [{ channelId: first }, { channelId: x }],
    });
    const [sent = { id: '' }, other = { id: '' }] = post.targets as Answered[];
    const before = statusesSent();
    expect(await publishTarget({ db: h.db }, sent.id)).toBe('published');
    expect(statusesSent()).toBe(before + 1);
    // The other target failed: the post ends failed, and can be edited again as a draft.
    await setTarget(h, other.id, {
      status: 'failed',
      attempts: 1,
      error: { code: 'rejected', message: 'Refused.', retryable: true },
    });
    await h.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, post.id));

    await disconnect('mastodon');
    await connectMastodon();
    const [again] = await channelIds('mastodon');

    expect((await put(post.id, { status: 'draft' })).status).toBe(200);
    const added = await put(post.id, {
      targets: [{ channelId: first }, { channelId: x }, { channelId: again }],
    });
    // Published again, every target it holds sent as the engine would.
    const publish = await put(post.id, { status: 'published' });
    expect(publish.status).toBe(200);
    for (const target of publish.json.data.targets as Answered[]) {
      await publishTarget({ db: h.db }, target.id);
    }
    expect(statusesSent()).toBe(before + 1);
    // The channel is the locked target's own: adding it again is a repeat of the channel.
    expect(added.status).toBe(400);
    expect(added.json.error.details.issues).toEqual([
      expect.objectContaining({ path: 'targets[2].channelId' }),
    ]);
    const got = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(got.json.data.targets.map((t: Answered) => [t.id, t.channelId])).toEqual([
      [sent.id, again],
      [other.id, x],
    ]);
    expect(got.json.data.targets[0].status).toBe('published');
  });

  it('publishes a scheduled post whose target was on the channel', async () => {
    await connectMastodon();
    const [channelId] = await channelIds('mastodon');
    const post = await createPost(h, {
      title: 'Later',
      content: 'Hello, later',
      status: 'scheduled',
      scheduledAt: inAnHour(),
      targets: [{ channelId }],
    });
    await disconnect('mastodon');
    await connectMastodon();
    await h.db
      .update(posts)
      .set({ scheduledAt: new Date(Date.now() - 1000) })
      .where(eq(posts.id, post.id));
    await publishDuePosts({ db: h.db });
    const [target] = post.targets as Answered[];
    expect(await publishTarget({ db: h.db }, target?.id ?? '')).toBe('published');
    const got = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(got.json.data).toMatchObject({ status: 'published' });
  });

  it('keeps the id over two reconnects, and leaves no retired row while connected', async () => {
    await connectMastodon();
    const [id] = await channelIds('mastodon');
    for (let round = 0; round < 2; round += 1) {
      await disconnect('mastodon');
      expect(await h.db.select().from(retiredChannels)).toHaveLength(1);
      await connectMastodon();
      expect(await channelIds('mastodon')).toEqual([id]);
      expect(await h.db.select().from(retiredChannels)).toEqual([]);
    }
  });
});

describe('a Page taken out of the grant and put back', () => {
  /** The OAuth trip: our authorize URL, the provider's redirect, our callback. */
  async function connectFacebook() {
    const started = await h.call('POST', '/api/integrations/connect/facebook', { body: {} });
    expect(started.status).toBe(200);
    const atProvider = await fetch(started.json.authUrl, { redirect: 'manual' });
    const landed = await h.handle(new Request(atProvider.headers.get('location') ?? ''));
    expect(new URL(landed.headers.get('location') ?? '').searchParams.get('status')).toBe(
      'connected',
    );
  }
  const pages = async () =>
    Object.fromEntries(
      (
        await h.db
          .select({ name: channels.name, id: channels.id })
          .from(channels)
          .where(eq(channels.integrationId, 'facebook'))
      ).map((row) => [row.name, row.id]),
    );

  it('keeps the Page’s id when a later grant lists it again', async () => {
    facebook.reset();
    profile.accounts.data = [{ name: 'Acme News' }, { name: 'Acme Deals' }];
    await connectFacebook();
    const before = await pages();
    expect(Object.keys(before).sort()).toEqual(['Acme Deals', 'Acme News']);

    profile.accounts.data = [{ name: 'Acme News' }];
    await connectFacebook();
    expect(await pages()).toEqual({ 'Acme News': before['Acme News'] });

    profile.accounts.data = [{ name: 'Acme News' }, { name: 'Acme Deals' }];
    await connectFacebook();
    expect(await pages()).toEqual(before);
    // Its token, sealed bound to the id, is the new grant's and reads back under the old id.
    const [page] = await h.db
      .select()
      .from(channels)
      .where(eq(channels.id, before['Acme Deals'] ?? ''));
    const [connection] = await h.db
      .select()
      .from(integrationConnections)
      .where(eq(integrationConnections.integrationId, 'facebook'));
    if (!page || !connection) throw new Error('the Page or its connection is missing');
    expect(publishingCredentials(page, connection)).toEqual({
      source: 'channel',
      credentials: expect.objectContaining({ accessToken: expect.stringMatching(/^pt_/) }),
    });
  });
});

describe('tenancy', () => {
  it('gives another account connecting the same Mastodon account its own id, never the first’s', async () => {
    const other = await h.newAccount('Globex', 'admin@globex-reconnect.test');
    await connectMastodon();
    const [ours] = await channelIds('mastodon');
    await disconnect('mastodon');

    await connectMastodon(other.token);
    const [theirs] = await channelIds('mastodon', other.token);
    expect(theirs).toMatch(/^chn_/);
    expect(theirs).not.toBe(ours);
    await disconnect('mastodon', other.token);
    await connectMastodon(other.token);
    expect(await channelIds('mastodon', other.token)).toEqual([theirs]);

    // Ours comes back to us, unchanged by theirs.
    await connectMastodon();
    expect(await channelIds('mastodon')).toEqual([ours]);
    await disconnect('mastodon', other.token);
  });
});
