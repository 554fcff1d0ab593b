import { and, channels, eq, integrationConnections, posts, retiredChannels } from '@chorus/db';
import { publishDuePosts, publishTarget, syncPublishedFigures } from '@chorus/services';
import { startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelIdsOn, connectMastodonTo, disconnectFrom } from './connection-fixtures';
import { startHarness, type Harness } from './harness';
import { runMigration } from './migration-fixtures';
import { createPost, inAnHour } from './posts-fixtures';

/**
 * A Mastodon account id is only unique on its instance (docs/publishing.md, Channels): two
 * instances' accounts of the same id are two channels, whichever the account connects first,
 * so one's published targets are never read from the other and its pending ones never go there.
 */

let h: Harness;
let one: MastodonStandIn;
let two: MastodonStandIn;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'd'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  one = await startMastodonStandIn({ domain: 'One.Example', ownAccountIds: true });
  two = await startMastodonStandIn({ domain: 'two.example', ownAccountIds: true });
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  await one?.close();
  await two?.close();
});

beforeEach(async () => {
  await h.db.delete(integrationConnections);
  await h.db.delete(retiredChannels);
});

type Answered = { id: string; channelId: string; status: string };

const connect = (instance: MastodonStandIn) => connectMastodonTo(h, instance);
const disconnect = () => disconnectFrom(h, 'mastodon');
const channelIds = () => channelIdsOn(h, 'mastodon');

/** A post published to the channel through the engine, as the network would have it. */
async function publishedOn(channelId: string) {
  const post = await createPost(h, {
    title: 'Sent',
    content: 'Hello from instance one',
    status: 'published',
    targets: [{ channelId }],
  });
  const [target] = post.targets as Answered[];
  expect(await publishTarget({ db: h.db }, target?.id ?? '')).toBe('published');
}

describe('two instances with accounts of the same id', () => {
  it('the stand-ins have them', () => {
    expect(one.accountId).toBe('1');
    expect(two.accountId).toBe(one.accountId);
  });

  it('makes them two channels across disconnect and connect, each keeping its own id', async () => {
    await connect(one);
    const [first] = await channelIds();
    await publishedOn(first ?? '');
    expect(await syncPublishedFigures({ db: h.db })).toBe(1);

    await disconnect();
    await connect(two);
    const [second] = await channelIds();
    expect(second).toMatch(/^chn_/);
    expect(second).not.toBe(first);
    // The published target stays instance one's: instance two is not asked for its status.
    expect(await syncPublishedFigures({ db: h.db })).toBe(0);

    await disconnect();
    await connect(one);
    expect(await channelIds()).toEqual([first]);
    expect(await syncPublishedFigures({ db: h.db })).toBe(1);
    await disconnect();
    await connect(two);
    expect(await channelIds()).toEqual([second]);
  });

  it('makes them two channels when the connection moves to the other instance', async () => {
    await connect(one);
    const [first] = await channelIds();
    await connect(two);
    const [second] = await channelIds();
    expect(second).not.toBe(first);
    await connect(one);
    expect(await channelIds()).toEqual([first]);
  });

  it('never sends a target scheduled for one instance’s account to the other’s', async () => {
    await connect(one);
    const [channelId] = await channelIds();
    const post = await createPost(h, {
      title: 'Later',
      content: 'Hello, instance one, later',
      status: 'scheduled',
      scheduledAt: inAnHour(),
      targets: [{ channelId }],
    });
    await disconnect();
    await connect(two);
    const before = two.published().length;
    await h.db
      .update(posts)
      .set({ scheduledAt: new Date(Date.now() - 1000) })
      .where(eq(posts.id, post.id));
    await publishDuePosts({ db: h.db });
    const [target] = post.targets as Answered[];
    await publishTarget({ db: h.db }, target?.id ?? '');
    expect(two.published()).toHaveLength(before);
    const got = await h.call('GET', `/api/content/posts/${post.id}`);
    expect(got.json.data.targets[0]).toMatchObject({
      status: 'failed',
      error: expect.objectContaining({ code: 'channel_unavailable' }),
    });
  });
});

describe('a channel stored before its id named the instance', () => {
  it('keeps its id after the migration and the next rediscovery', async () => {
    await connect(one);
    const [id] = await channelIds();
    // What discovery stored before: the account's id alone, the handle as the instance names it.
    await h.db
      .update(channels)
      .set({ externalId: one.accountId, handle: '@alice@One.Example' })
      .where(eq(channels.id, id ?? ''));
    // A retired channel of that time: nothing kept says which instance it was on.
    await h.db.insert(retiredChannels).values([
      {
        accountId: h.main.accountId,
        integrationId: 'mastodon',
        externalId: '7',
        channelId: 'chn_gone',
      },
      {
        accountId: h.main.accountId,
        integrationId: 'bluesky',
        externalId: 'did:plc:kept',
        channelId: 'chn_bluesky',
      },
    ]);

    // Twice: the migration leaves a channel in the new form as it is.
    for (let round = 0; round < 2; round += 1) {
      await runMigration(h, '_mastodon_channel_instance');
    }
    const [row] = await h.db
      .select({ externalId: channels.externalId })
      .from(channels)
      .where(eq(channels.id, id ?? ''));
    expect(row?.externalId).toBe('1@one.example');
    expect(
      await h.db
        .select({ externalId: retiredChannels.externalId })
        .from(retiredChannels)
        .where(eq(retiredChannels.accountId, h.main.accountId)),
    ).toEqual([{ externalId: 'did:plc:kept' }]);

    await connect(one);
    expect(await channelIds()).toEqual([id]);
    // The account of the same id on instance two is still another channel.
    await connect(two);
    expect(await channelIds()).not.toEqual([id]);
    await connect(one);
    expect(await channelIds()).toEqual([id]);
    expect(
      await h.db
        .select({ handle: channels.handle })
        .from(channels)
        .where(and(eq(channels.id, id ?? ''), eq(channels.accountId, h.main.accountId))),
    ).toEqual([{ handle: '@alice@one.example' }]);
  });
});
