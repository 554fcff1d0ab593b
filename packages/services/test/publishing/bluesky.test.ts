import { readFileSync } from 'node:fs';
import { AtpAgent } from '@atproto/api';
import { startMediaHost, startStandIn, type StandIn } from '@chorus/stand-ins';
import {
  startBlueskyPds,
  type BlueskyAccount,
  type BlueskyPds,
} from '@chorus/stand-ins/bluesky-pds';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ProviderContext,
  ProviderCredentials,
  PublishMedia,
  PublishRequest,
} from '../../src/publishing';
import { bluesky } from '../../src/publishing/providers/bluesky';
import { recordKey, TID } from '../../src/publishing/providers/bluesky/record-key';
import { failure, publishRequest, targetId } from './harness';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../api/test/fixtures/${name}`, import.meta.url));

interface PostRecord {
  text: string;
  createdAt: string;
  facets?: { index: { byteStart: number; byteEnd: number }; features: Record<string, string>[] }[];
  embed?: Record<string, unknown> & { $type: string };
  reply?: { root: { uri: string; cid: string }; parent: { uri: string; cid: string } };
}

describe('Bluesky on the reference PDS', () => {
  let pds: BlueskyPds;
  let media: Awaited<ReturnType<typeof startMediaHost>>;
  let alice: BlueskyAccount;
  let bob: BlueskyAccount;
  let context: ProviderContext;
  let credentials: ProviderCredentials;
  const reader = () => new AtpAgent({ service: pds.url });

  beforeAll(async () => {
    [pds, media] = await Promise.all([startBlueskyPds({ rateLimits: true }), startMediaHost()]);
    alice = await pds.createAccount('alice.test');
    bob = await pds.createAccount('bob.test');
    context = { apiUrl: pds.url };
    const [channel] = await bluesky.discoverChannels(
      { accessToken: alice.appPassword, extra: { handle: alice.handle } },
      context,
    );
    credentials = channel?.credentials ?? { accessToken: '' };
  }, 60_000);
  afterAll(async () => {
    await media?.close();
    await pds?.close();
  });

  /** A publish request of alice's channel that keeps its progress, as the engine would. */
  function target(
    parts: { text: string; media?: PublishMedia[] }[],
    options: { firstComment?: string; credentials?: ProviderCredentials } = {},
  ) {
    const channel = {
      externalId: alice.did,
      handle: `@${alice.handle}`,
      credentials: options.credentials ?? credentials,
    };
    const { request, saved, retry } = publishRequest({
      channel,
      parts,
      firstComment: options.firstComment,
    });
    return { request, progress: () => saved.at(-1) ?? {}, retry };
  }

  async function record(uri: string) {
    const [, , repo, collection, rkey] = uri.split('/');
    const { data } = await reader().com.atproto.repo.getRecord({
      repo: repo ?? '',
      collection: collection ?? '',
      rkey: rkey ?? '',
    });
    return { ...data, value: data.value as unknown as PostRecord, rkey: rkey ?? '' };
  }

  async function postsOf(account: BlueskyAccount) {
    const { data } = await reader().com.atproto.repo.listRecords({
      repo: account.did,
      collection: 'app.bsky.feed.post',
      limit: 100,
    });
    return data.records.map((entry) => ({
      uri: entry.uri,
      value: entry.value as unknown as PostRecord,
    }));
  }

  describe('connecting', () => {
    it('opens a session with the handle and app password and finds the account', async () => {
      const [channel, ...others] = await bluesky.discoverChannels(
        { accessToken: alice.appPassword, extra: { handle: `@${alice.handle}` } },
        context,
      );
      expect(others).toEqual([]);
      expect(channel).toMatchObject({
        externalId: alice.did,
        name: alice.handle,
        handle: '@alice.test',
        avatarUrl: null,
        kind: 'account',
      });
      const session = channel?.credentials;
      expect(session?.refreshToken).toBeTruthy();
      expect(session?.extra).toMatchObject({
        did: alice.did,
        handle: alice.handle,
        serviceUrl: pds.url,
      });
      // The access JWT's own expiry, so the engine refreshes before it (2 hours on this PDS).
      const expiresIn = Date.parse(session?.expiresAt ?? '') - Date.now();
      expect(expiresIn).toBeGreaterThan(110 * 60_000);
      expect(expiresIn).toBeLessThanOrEqual(120 * 60_000);
    });

    it('names the channel from the profile record when the PDS has no AppView', async () => {
      const owner = new AtpAgent({ service: pds.url });
      const carol = await pds.createAccount('carol.test');
      await owner.login({ identifier: carol.handle, password: carol.password });
      const { data: avatar } = await owner.uploadBlob(fixture('pixel.png'), {
        encoding: 'image/png',
      });
      await owner.com.atproto.repo.putRecord({
        repo: carol.did,
        collection: 'app.bsky.actor.profile',
        rkey: 'self',
        record: { $type: 'app.bsky.actor.profile', displayName: 'Carol C.', avatar: avatar.blob },
      });
      const [channel] = await bluesky.discoverChannels(
        { accessToken: carol.appPassword, extra: { handle: carol.handle } },
        context,
      );
      expect(channel?.name).toBe('Carol C.');
      const served = await fetch(channel?.avatarUrl ?? '');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(fixture('pixel.png'));
    });

    it('refuses a wrong app password as revoked credentials', async () => {
      const error = await failure(
        bluesky.discoverChannels(
          { accessToken: 'aaaa-bbbb-cccc-dddd', extra: { handle: bob.handle } },
          context,
        ),
      );
      expect(bluesky.classify(error)).toEqual({
        class: 'revoked',
        message: 'Invalid identifier or password',
      });
    });
  });

  describe('publishing', () => {
    it('posts text under a record key derived from the target, with its address', async () => {
      const { request } = target([{ text: 'Hello from Chorus' }]);
      const published = await bluesky.publish(request, context);
      const rkey = recordKey(request.targetId, 0);
      expect(rkey).toMatch(TID);
      expect(published).toEqual({
        externalId: `at://${alice.did}/app.bsky.feed.post/${rkey}`,
        url: `https://bsky.app/profile/${alice.did}/post/${rkey}`,
      });
      const { value } = await record(published.externalId);
      expect(value.text).toBe('Hello from Chorus');
      expect(Date.parse(value.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(value.facets).toBeUndefined();
    });

    it('marks links and mentions in UTF-8 bytes after non-ASCII text, mentions by DID', async () => {
      const text = 'Grüße 🇫🇷 für @bob.test: https://example.com/café?x=1. Not @nobody.test #Chorus';
      const { request } = target([{ text }]);
      const { value } = await record((await bluesky.publish(request, context)).externalId);
      const bytes = new TextEncoder().encode(text);
      const marked = (value.facets ?? []).map((facet) => ({
        text: new TextDecoder().decode(bytes.slice(facet.index.byteStart, facet.index.byteEnd)),
        features: facet.features,
      }));
      expect(marked).toEqual([
        {
          text: '@bob.test',
          features: [{ $type: 'app.bsky.richtext.facet#mention', did: bob.did }],
        },
        {
          text: 'https://example.com/café?x=1',
          features: [
            { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/café?x=1' },
          ],
        },
        { text: '#Chorus', features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'Chorus' }] },
      ]);
    });

    it('uploads up to four images from their streams, with alt text and aspect ratio', async () => {
      const opened: string[] = [];
      const image = (
        name: string,
        mimeType: string,
        facts: { width?: number; height?: number; altText?: string },
      ) => {
        const item = media.add(fixture(name), { mimeType, ...facts });
        return { ...item, open: () => (opened.push(item.id), item.open()) };
      };
      const images = [
        image('photo.jpg', 'image/jpeg', { width: 40, height: 30, altText: 'A photo' }),
        image('pixel.png', 'image/png', { width: 16, height: 9 }),
        image('pic.webp', 'image/webp', { altText: 'A webp' }),
      ];
      const { request } = target([{ text: 'Three pictures', media: images }]);
      const { value } = await record((await bluesky.publish(request, context)).externalId);
      expect(opened).toEqual(images.map((item) => item.id));
      expect(value.embed?.$type).toBe('app.bsky.embed.images');
      const embedded = value.embed?.images as {
        image: { ref: { toString(): string }; mimeType: string; size: number };
        alt: string;
        aspectRatio?: { width: number; height: number };
      }[];
      expect(embedded.map(({ alt, aspectRatio }) => ({ alt, aspectRatio }))).toEqual([
        { alt: 'A photo', aspectRatio: { width: 40, height: 30 } },
        { alt: '', aspectRatio: { width: 16, height: 9 } },
        { alt: 'A webp', aspectRatio: undefined },
      ]);
      // The PDS holds exactly the bytes that were streamed to it.
      const first = embedded[0];
      const { data } = await reader().com.atproto.sync.getBlob({
        did: alice.did,
        cid: first?.image.ref.toString() ?? '',
      });
      expect(Buffer.from(data)).toEqual(fixture('photo.jpg'));
      expect(first?.image).toMatchObject({
        mimeType: 'image/jpeg',
        size: fixture('photo.jpg').length,
      });
    });

    it('uploads a video as app.bsky.embed.video', async () => {
      const clip = media.add(fixture('clip.mp4'), {
        mimeType: 'video/mp4',
        width: 16,
        height: 9,
        altText: 'A clip',
      });
      const { request } = target([{ text: 'A video', media: [clip] }]);
      const { value } = await record((await bluesky.publish(request, context)).externalId);
      expect(value.embed).toMatchObject({
        $type: 'app.bsky.embed.video',
        alt: 'A clip',
        aspectRatio: { width: 16, height: 9 },
        video: { mimeType: 'video/mp4', size: fixture('clip.mp4').length },
      });
    });

    it('posts a thread as a reply chain and the first comment as a reply to the first post', async () => {
      const { request, progress } = target(
        [{ text: 'Thread 1/3' }, { text: 'Thread 2/3' }, { text: 'Thread 3/3' }],
        { firstComment: 'More in the link below' },
      );
      const published = await bluesky.publish(request, context);
      const saved = progress();
      const posts = (saved.posts as string[]).map((entry) => entry.split(' ')[0] ?? '');
      expect(posts[0]).toBe(published.externalId);
      const [first, second, third] = await Promise.all(posts.map(record));
      const comment = await record(String(saved.comment).split(' ')[0] ?? '');
      const ref = (entry: typeof first) => ({ uri: entry?.uri, cid: entry?.cid });
      expect(first?.value.reply).toBeUndefined();
      expect(second?.value).toMatchObject({
        text: 'Thread 2/3',
        reply: { root: ref(first), parent: ref(first) },
      });
      expect(third?.value).toMatchObject({
        text: 'Thread 3/3',
        reply: { root: ref(first), parent: ref(second) },
      });
      expect(comment.value).toMatchObject({
        text: 'More in the link below',
        reply: { root: ref(first), parent: ref(first) },
      });
      expect([second, third, comment].map((entry) => entry?.rkey)).toEqual(
        [1, 2, 3].map((part) => recordKey(request.targetId, part)),
      );
    });
  });

  describe('exactly one record per part, however often a target is attempted', () => {
    const countOf = async (text: string) =>
      (await postsOf(alice)).filter((entry) => entry.value.text === text).length;

    it('lands a repeated attempt that saved no progress on the records already written', async () => {
      const { request } = target([{ text: 'Once 1/2' }, { text: 'Once 2/2' }], {
        firstComment: 'Once, commented',
      });
      const first = await bluesky.publish(request, context);
      // As after a crash before any progress was stored: every part is sent again.
      const again = await bluesky.publish({ ...request, progress: {} }, context);
      const third = await bluesky.publish({ ...request, progress: {} }, context);
      expect(again).toEqual(first);
      expect(third).toEqual(first);
      expect(await Promise.all(['Once 1/2', 'Once 2/2', 'Once, commented'].map(countOf))).toEqual([
        1, 1, 1,
      ]);
    });

    it('continues a thread from the saved progress after a failure between parts', async () => {
      let saves = 0;
      const { request, retry } = target([{ text: 'Resume 1/2' }, { text: 'Resume 2/2' }]);
      const crashing: PublishRequest = {
        ...request,
        saveProgress: async (progress) => {
          await request.saveProgress(progress);
          if (++saves === 1) throw new Error('worker stopped');
        },
      };
      await expect(bluesky.publish(crashing, context)).rejects.toThrow('worker stopped');
      expect(Object.keys(retry().progress)).toEqual(['posts']);
      await bluesky.publish(retry(), context);
      expect(await countOf('Resume 1/2')).toBe(1);
      expect(await countOf('Resume 2/2')).toBe(1);
    });

    it('a revision keeping the first part sends only what follows it, under the new keys', async () => {
      const { request, progress } = target([{ text: 'Kept 1/2' }, { text: 'Old 2/2' }], {
        firstComment: 'Old comment',
      });
      const first = await bluesky.publish(request, context);
      // What the revision keeps of a target whose second part and comment change.
      const kept = bluesky.keepParts(progress(), 1);
      expect(bluesky.head(kept)).toEqual(first);
      expect(bluesky.keepParts(progress(), 0)).toEqual({});
      const revised: PublishRequest = {
        ...request,
        revision: 1,
        parts: [
          { text: 'Kept 1/2', media: [] },
          { text: 'New 2/2', media: [] },
        ],
        firstComment: 'New comment',
        progress: kept,
      };
      expect(await bluesky.publish(revised, context)).toEqual(first);
      expect(await Promise.all(['Kept 1/2', 'New 2/2', 'New comment'].map(countOf))).toEqual([
        1, 1, 1,
      ]);
      const part = (await postsOf(alice)).find((entry) => entry.value.text === 'New 2/2');
      expect(part?.value.reply?.parent.uri).toBe(first.externalId);
      expect(part?.uri.split('/').at(-1)).toBe(
        recordKey(request.targetId, 1, 0, `${request.targetId}.r1`),
      );
    });

    describe('when the PDS wrote the record but its answer was lost', () => {
      let dropping: StandIn;
      /** What the hop drops the connection on, once the PDS has answered. */
      let drop = ['com.atproto.repo.createRecord'];
      beforeAll(async () => {
        // A loopback hop that forwards every call to the PDS, and drops the connection of
        // the calls named in `drop` after the PDS acted on them: outcomes unknown to us.
        dropping = await startStandIn(async (req, res, body) => {
          const forwarded = await fetch(`${pds.url}${req.url}`, {
            method: req.method,
            headers: Object.fromEntries(
              ['authorization', 'content-type'].flatMap((name) => {
                const value = req.headers[name];
                return typeof value === 'string' ? [[name, value]] : [];
              }),
            ),
            body: req.method === 'POST' ? new Uint8Array(body) : undefined,
          });
          if (drop.some((nsid) => req.url?.includes(nsid))) return void res.destroy();
          res.writeHead(forwarded.status, {
            'content-type': forwarded.headers.get('content-type') ?? '',
          });
          res.end(Buffer.from(await forwarded.arrayBuffer()));
        });
      });
      afterAll(() => dropping?.close());

      it('reads the record back and goes on: one record, no error', async () => {
        drop = ['com.atproto.repo.createRecord'];
        const { request } = target([{ text: 'Answer lost, record found' }]);
        const published = await bluesky.publish(request, { apiUrl: dropping.url });
        expect(published.externalId).toBe(
          `at://${alice.did}/app.bsky.feed.post/${recordKey(request.targetId, 0)}`,
        );
        expect(await countOf('Answer lost, record found')).toBe(1);
      });

      it('is an unknown outcome when the record cannot be read back either, retried safely', async () => {
        drop = ['com.atproto.repo.createRecord', 'com.atproto.repo.getRecord'];
        const { request } = target([{ text: 'Lost answer' }]);
        const error = await failure(bluesky.publish(request, { apiUrl: dropping.url }));
        expect(bluesky.classify(error).class).toBe('unknown_outcome');
        // The engine retries an unknown outcome of an idempotent provider.
        expect(bluesky.idempotent).toBe(true);
        expect(await countOf('Lost answer')).toBe(1);
        const published = await bluesky.publish(request, context);
        expect(published.externalId).toBe(
          `at://${alice.did}/app.bsky.feed.post/${recordKey(request.targetId, 0)}`,
        );
        expect(await countOf('Lost answer')).toBe(1);
      });
    });

    it("moves on to the next derived key when another record holds the target's", async () => {
      const { request } = target([{ text: 'Mine' }]);
      const owner = new AtpAgent({ service: pds.url });
      await owner.login({ identifier: alice.handle, password: alice.password });
      await owner.com.atproto.repo.createRecord({
        repo: alice.did,
        collection: 'app.bsky.feed.post',
        rkey: recordKey(request.targetId, 0),
        record: {
          $type: 'app.bsky.feed.post',
          text: 'Someone else',
          createdAt: new Date().toISOString(),
        },
      });
      const published = await bluesky.publish(request, context);
      expect(published.externalId.endsWith(`/${recordKey(request.targetId, 0, 1)}`)).toBe(true);
      expect(await bluesky.publish({ ...request, progress: {} }, context)).toEqual(published);
      expect(await countOf('Mine')).toBe(1);
      expect(await countOf('Someone else')).toBe(1);
    });
  });

  describe('sessions', () => {
    it('classifies an expired access JWT as token_expired, and publishes after a refresh', async () => {
      const expired = { ...credentials, accessToken: pds.expiredAccessToken(alice.did) };
      const { request } = target([{ text: 'After a refresh' }], { credentials: expired });
      const error = await failure(bluesky.publish(request, context));
      expect(bluesky.classify(error)).toEqual({
        class: 'token_expired',
        message: 'Token has expired',
      });
      const refreshed = await bluesky.refresh(expired, context);
      expect(refreshed.accessToken).not.toBe(expired.accessToken);
      expect(refreshed.refreshToken).not.toBe(expired.refreshToken);
      expect(Date.parse(refreshed.expiresAt ?? '')).toBeGreaterThan(Date.now());
      const published = await bluesky.publish(
        { ...request, channel: { ...request.channel, credentials: refreshed } },
        context,
      );
      expect((await record(published.externalId)).value.text).toBe('After a refresh');
    });

    it('opens a new session with the app password when the refresh JWT is no longer taken', async () => {
      const stale = { ...credentials, refreshToken: 'not-a-refresh-token' };
      const refreshed = await bluesky.refresh(stale, context);
      expect(refreshed.extra?.did).toBe(alice.did);
      const { request } = target([{ text: 'Logged in again' }], { credentials: refreshed });
      await bluesky.publish(request, context);
    });

    it('reports a revoked app password as revoked once the refresh fails', async () => {
      const dave = await pds.createAccount('dave.test');
      const [channel] = await bluesky.discoverChannels(
        { accessToken: dave.appPassword, extra: { handle: dave.handle } },
        context,
      );
      await pds.revokeAppPassword(dave);
      const error = await failure(
        bluesky.refresh(channel?.credentials ?? { accessToken: '' }, context),
      );
      expect(bluesky.classify(error)).toEqual({
        class: 'revoked',
        message: 'Invalid identifier or password',
      });
    });
  });

  describe('errors', () => {
    it("fails a post the PDS refuses as rejected, with the PDS's message", async () => {
      const { request } = target([{ text: 'x'.repeat(301) }]);
      const error = await failure(bluesky.publish(request, context));
      expect(bluesky.classify(error)).toEqual({
        class: 'rejected',
        message:
          'Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301) at $.record.text',
      });
    });

    it('waits for ratelimit-reset when the PDS answers 429', async () => {
      const erin = await pds.createAccount('erin.test');
      const wrong = { accessToken: 'wrong-password', extra: { handle: erin.handle } };
      // createSession allows 30 attempts per account in 5 minutes (sent at once: each is slow).
      const errors = await Promise.all(
        Array.from({ length: 31 }, () => failure(bluesky.discoverChannels(wrong, context))),
      );
      const classes = errors.map((error) => bluesky.classify(error).class);
      expect(classes.filter((name) => name === 'revoked')).toHaveLength(30);
      const classified = bluesky.classify(errors[classes.indexOf('rate_limited')]);
      expect(classified).toMatchObject({ class: 'rate_limited', message: 'Rate Limit Exceeded' });
      expect(classified.retryAfterMs).toBeGreaterThan(0);
      expect(classified.retryAfterMs).toBeLessThanOrEqual(300_000);
    });

    it('treats a server error and a refused connection as transient', async () => {
      // Without an AppView behind it, the PDS answers app.bsky.feed.getPosts 502 UpstreamFailure.
      const error = await failure(
        bluesky.metrics(
          [`at://${alice.did}/app.bsky.feed.post/x`],
          { externalId: alice.did, credentials },
          context,
        ),
      );
      expect(bluesky.classify(error)).toEqual({
        class: 'transient',
        message: 'Upstream service unreachable',
      });
      const closed = await startStandIn(() => undefined);
      await closed.close();
      const refused = await failure(
        bluesky.publish(target([{ text: 'Nowhere' }]).request, { apiUrl: closed.url }),
      );
      expect(bluesky.classify(refused).class).toBe('transient');
    });

    it('refuses text over 3,000 UTF-8 bytes before publishing', () => {
      // 121 graphemes of 25 bytes each: within 300 graphemes, over 3,000 bytes.
      const withinGraphemes = '👩‍👩‍👧‍👦'.repeat(121);
      expect(
        bluesky.validate({
          parts: [
            { text: 'fine', media: [] },
            { text: withinGraphemes, media: [] },
          ],
          firstComment: withinGraphemes,
        }),
      ).toEqual(
        ['thread[0].content', 'firstComment'].map((path) => ({
          path,
          message: 'Bluesky takes at most 3000 bytes of text in one post.',
        })),
      );
    });
  });
});

describe('Bluesky with an AppView', () => {
  let pds: BlueskyPds;
  let alice: BlueskyAccount;
  let credentials: ProviderCredentials;
  let context: ProviderContext;

  beforeAll(async () => {
    pds = await startBlueskyPds({ appView: true });
    context = { apiUrl: pds.url };
    alice = await pds.createAccount('alice.test');
    const owner = new AtpAgent({ service: pds.url });
    await owner.login({ identifier: alice.handle, password: alice.password });
    await owner.upsertProfile(() => ({ displayName: 'Alice A.' }));
    await pds.indexed();
    const [channel] = await bluesky.discoverChannels(
      { accessToken: alice.appPassword, extra: { handle: alice.handle } },
      context,
    );
    expect(channel?.name).toBe('Alice A.');
    credentials = channel?.credentials ?? { accessToken: '' };
  }, 120_000);
  afterAll(() => pds?.close());

  it('reads likes, reposts and quotes, and replies of published posts from the AppView', async () => {
    const channel = { externalId: alice.did, handle: '@alice.test', credentials };
    const { request } = publishRequest({ channel, parts: [{ text: 'Count me' }] });
    const { externalId } = await bluesky.publish(request, context);
    const quiet = await bluesky.publish(
      publishRequest({ channel, parts: [{ text: 'Quiet' }] }).request,
      context,
    );
    const bob = await pds.createAccount('bob.test');
    const fan = new AtpAgent({ service: pds.url });
    await fan.login({ identifier: bob.handle, password: bob.password });
    const { data } = await fan.com.atproto.repo.getRecord({
      repo: alice.did,
      collection: 'app.bsky.feed.post',
      rkey: externalId.split('/').at(-1) ?? '',
    });
    const post = { uri: externalId, cid: data.cid ?? '' };
    await fan.like(post.uri, post.cid);
    await fan.repost(post.uri, post.cid);
    await fan.post({ text: 'Quoting', embed: { $type: 'app.bsky.embed.record', record: post } });
    await fan.post({ text: 'Replying', reply: { root: post, parent: post } });
    await pds.indexed();
    const missing = `at://${alice.did}/app.bsky.feed.post/${recordKey(targetId(), 0)}`;
    const figures = await bluesky.metrics(
      [externalId, quiet.externalId, missing],
      { externalId: alice.did, credentials },
      context,
    );
    expect(Object.fromEntries(figures)).toEqual({
      [externalId]: { like: 1, share: 2, comment: 1 },
      [quiet.externalId]: { like: 0, share: 0, comment: 0 },
    });
  });
});
