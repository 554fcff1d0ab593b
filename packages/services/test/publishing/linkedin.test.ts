import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  LINKEDIN_MEMBER_SCOPES,
  linkedinFaults,
  startLinkedInStandIn,
  startMediaHost,
  type LinkedInStandIn,
} from '@chorus/stand-ins';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderContext, ProviderCredentials, PublishMedia } from '../../src/publishing';
import { linkedin } from '../../src/publishing/providers/linkedin';
import { failure, mediaFacts, publishRequest, sha256 } from './harness';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../api/test/fixtures/${name}`, import.meta.url));

let standIn: LinkedInStandIn;
let media: Awaited<ReturnType<typeof startMediaHost>>;
let context: ProviderContext;
let organization: string;
const credentials = (): ProviderCredentials => ({
  accessToken: standIn.member.token,
  refreshToken: standIn.member.refreshToken,
});

beforeAll(async () => {
  // Video parts of 64 KiB, so that a small test video is sent in several.
  [standIn, media] = await Promise.all([
    startLinkedInStandIn({ videoPartBytes: 64 * 1024 }),
    startMediaHost(),
  ]);
  context = {
    apiUrl: standIn.url,
    oauth: { tokenUrl: `${standIn.url}/oauth/v2/accessToken`, ...standIn.app },
  };
  organization = standIn.addOrganization('Analytical Engines', [
    [standIn.member.id, 'ADMINISTRATOR'],
  ]);
  standIn.addOrganization('Difference Engines', [[standIn.member.id, 'ANALYST']]);
  standIn.addOrganization('Someone Else Ltd', [[standIn.addMember('Other').id, 'ADMINISTRATOR']]);
});
afterAll(async () => {
  await media?.close();
  await standIn?.close();
});
beforeEach(() => standIn.faults.clear());

/** A target of the member's (or the organisation's) channel. */
function target(
  parts: { text: string; media?: PublishMedia[] }[],
  options: { firstComment?: string; as?: string; credentials?: ProviderCredentials } = {},
) {
  const externalId = options.as ?? standIn.member.urn;
  const channel = {
    externalId,
    handle: externalId,
    credentials: options.credentials ?? credentials(),
  };
  return publishRequest({ channel, parts, firstComment: options.firstComment });
}
const postOf = (urn: string) => standIn.published().find((post) => post.urn === urn);
const requests = (path: string) =>
  standIn.received.filter((request) => request.url.startsWith(path)).length;

describe('LinkedIn channels', () => {
  it('finds the member and the organisations they may post for', async () => {
    const channels = await linkedin.discoverChannels(credentials(), context);
    expect(channels).toEqual([
      {
        externalId: standIn.member.urn,
        name: 'Ada Lovelace',
        handle: 'Ada Lovelace',
        avatarUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/media\//),
        kind: 'profile',
      },
      {
        externalId: organization,
        name: 'Analytical Engines',
        handle: 'analytical-engines',
        avatarUrl: null,
        kind: 'organization',
      },
    ]);
  });

  it('finds the member alone when the grant has no organisation scopes', async () => {
    const member = standIn.addMember('Mary Somerville', LINKEDIN_MEMBER_SCOPES);
    standIn.addOrganization('Her Society', [[member.id, 'ADMINISTRATOR']]);
    const channels = await linkedin.discoverChannels({ accessToken: member.token }, context);
    expect(channels.map((channel) => channel.externalId)).toEqual([member.urn]);
  });
});

describe('LinkedIn publishing', () => {
  it('posts text in little text, escaped, with hashtags as hashtags', async () => {
    const text =
      'Q&A (live) at 5pm — *bring* [slides] ~ 100% {maybe} <b> a|b back\\slash @home #AI #Maschinenbau!';
    const { request } = target([{ text }]);
    const published = await linkedin.publish(request, context);
    expect(published.externalId).toMatch(/^urn:li:share:\d+$/);
    expect(published.url).toBe(`https://www.linkedin.com/feed/update/${published.externalId}`);
    const post = postOf(published.externalId);
    expect(post).toMatchObject({
      author: standIn.member.urn,
      text,
      visibility: 'PUBLIC',
      content: null,
    });
    expect(post?.commentary).toContain('\\@home {hashtag|#|AI} {hashtag|#|Maschinenbau}!');
  });

  it('uploads an image from its stream and posts it with its alt text, saving progress before the post', async () => {
    const image = media.add(fixture('photo.jpg'), { mimeType: 'image/jpeg', altText: 'A photo' });
    const { request, saved } = target([{ text: 'One picture', media: [image] }]);
    const published = await linkedin.publish(request, context);
    const [upload] = postOf(published.externalId)?.media ?? [];
    expect(upload).toMatchObject({
      kind: 'image',
      owner: standIn.member.urn,
      sha256: sha256(fixture('photo.jpg')),
    });
    expect(postOf(published.externalId)?.content).toEqual({
      media: { id: upload?.urn, altText: 'A photo' },
    });
    expect(saved).toEqual([
      { media: [upload?.urn] },
      { media: [upload?.urn], post: published.externalId },
    ]);
  });

  it('posts several images as a multiImage', async () => {
    const images = ['photo.jpg', 'pixel.png', 'pic.gif'].map((name, index) =>
      media.add(fixture(name), {
        mimeType: `image/${name.split('.')[1]?.replace('jpg', 'jpeg')}`,
        ...(index === 1 ? {} : { altText: `Image ${index}` }),
      }),
    );
    const { request } = target([{ text: 'Three pictures', media: images }]);
    const post = postOf((await linkedin.publish(request, context)).externalId);
    expect(post?.content?.multiImage?.images.map((entry) => entry.altText)).toEqual([
      'Image 0',
      undefined,
      'Image 2',
    ]);
    expect(post?.media.map((upload) => upload.sha256)).toEqual(
      ['photo.jpg', 'pixel.png', 'pic.gif'].map((name) => sha256(fixture(name))),
    );
  });

  it('uploads a video in the parts LinkedIn lists, finalizes it and waits until it is processed', async () => {
    const bytes = randomBytes(200 * 1024);
    const video = media.add(bytes, { mimeType: 'video/mp4', altText: 'A clip' });
    const parts = requests('/dms-uploads/');
    const { request } = target([{ text: 'A video', media: [video] }]);
    const post = postOf((await linkedin.publish(request, context)).externalId);
    expect(requests('/dms-uploads/') - parts).toBe(4);
    expect(post?.media[0]).toMatchObject({
      kind: 'video',
      status: 'AVAILABLE',
      size: bytes.length,
      sha256: sha256(bytes),
    });
    expect(post?.content).toEqual({ media: { id: post?.media[0]?.urn, title: 'A clip' } });
  });

  it('posts a PDF as a document with a title', async () => {
    const pdf = media.add(fixture('doc.pdf'), { mimeType: 'application/pdf' });
    const { request } = target([{ text: 'Read the paper', media: [pdf] }]);
    const post = postOf((await linkedin.publish(request, context)).externalId);
    expect(post?.content).toEqual({ media: { id: post?.media[0]?.urn, title: 'Document' } });
    expect(post?.media[0]).toMatchObject({ kind: 'document', sha256: sha256(fixture('doc.pdf')) });
  });

  it('posts as an organisation, with the first comment by the organisation', async () => {
    const { request, saved } = target([{ text: 'From the company' }], {
      as: organization,
      firstComment: 'Details below',
    });
    const published = await linkedin.publish(request, context);
    const post = postOf(published.externalId);
    expect(post?.author).toBe(organization);
    expect(post?.comments).toEqual([
      { urn: saved.at(-1)?.comment, actor: organization, text: 'Details below' },
    ]);
  });
});

describe('LinkedIn: one post per target across attempts', () => {
  it('continues from the uploads already done when the post failed', async () => {
    const images = [
      media.add(fixture('photo.jpg'), { mimeType: 'image/jpeg' }),
      media.add(fixture('pixel.png'), { mimeType: 'image/png' }),
    ];
    standIn.faults.inject(linkedinFaults.unavailable(), { method: 'POST', path: '/rest/posts' });
    const { request, retry } = target([{ text: 'Try again', media: images }]);
    const error = await failure(linkedin.publish(request, context));
    expect(linkedin.classify(error)).toEqual({
      class: 'transient',
      message: 'Service Unavailable',
    });
    const uploads = requests('/rest/images?action=initializeUpload');
    const published = await linkedin.publish(retry(), context);
    expect(requests('/rest/images?action=initializeUpload')).toBe(uploads);
    expect(standIn.published().filter((post) => post.text === 'Try again')).toHaveLength(1);
    expect(postOf(published.externalId)?.media).toHaveLength(2);
  });

  it('posts only the comment on a retry after the comment failed', async () => {
    standIn.faults.inject(linkedinFaults.unavailable(), { method: 'POST', path: /\/comments$/ });
    const { request, retry } = target([{ text: 'Comment later' }], { firstComment: 'Later' });
    await failure(linkedin.publish(request, context));
    const published = await linkedin.publish(retry(), context);
    expect(standIn.published().filter((post) => post.text === 'Comment later')).toHaveLength(1);
    expect(postOf(published.externalId)?.comments.map((comment) => comment.text)).toEqual([
      'Later',
    ]);
  });

  it('reports a lost answer or a gateway timeout to the post as an unknown outcome (not idempotent)', async () => {
    expect(linkedin.idempotent).toBe(false);
    standIn.faults.inject({ kind: 'drop' }, { method: 'POST', path: '/rest/posts' });
    const dropped = await failure(
      linkedin.publish(target([{ text: 'Answer lost' }]).request, context),
    );
    expect(linkedin.classify(dropped).class).toBe('unknown_outcome');
    expect(standIn.published().filter((post) => post.text === 'Answer lost')).toHaveLength(1);
    standIn.faults.inject(linkedinFaults.gatewayTimeout(), { method: 'POST', path: '/rest/posts' });
    const timedOut = await failure(
      linkedin.publish(target([{ text: 'Gateway' }]).request, context),
    );
    expect(linkedin.classify(timedOut)).toEqual({
      class: 'unknown_outcome',
      message: 'LinkedIn answered 504 to the post; it may exist.',
    });
  });

  it('takes the post LinkedIn already has when it refuses the same content as a duplicate', async () => {
    const first = await linkedin.publish(target([{ text: 'Said once' }]).request, context);
    const again = await linkedin.publish(target([{ text: 'Said once' }]).request, context);
    expect(again).toEqual(first);
    expect(standIn.published().filter((post) => post.text === 'Said once')).toHaveLength(1);
  });
});

describe('LinkedIn errors and tokens', () => {
  it("fails a refused post with LinkedIn's message", async () => {
    const error = await failure(
      linkedin.publish(target([{ text: 'x'.repeat(3001) }]).request, context),
    );
    expect(linkedin.classify(error)).toEqual({
      class: 'rejected',
      message: 'ERROR :: /commentary :: length 3001 exceeds the maximum of 3000 characters',
    });
    const stranger = standIn.addOrganization('Not Mine', [
      [standIn.addMember('Owner').id, 'ADMINISTRATOR'],
    ]);
    const refused = await failure(
      linkedin.publish(target([{ text: 'Not allowed' }], { as: stranger }).request, context),
    );
    expect(linkedin.classify(refused)).toEqual({
      class: 'rejected',
      message: `Member is not permitted to create a post as ${stranger}`,
    });
  });

  it('waits until midnight UTC after a daily throttle', async () => {
    standIn.faults.inject(linkedinFaults.rateLimited(), { method: 'POST', path: '/rest/posts' });
    const classified = linkedin.classify(
      await failure(linkedin.publish(target([{ text: 'Throttled' }]).request, context)),
    );
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(classified.class).toBe('rate_limited');
    expect(Math.abs((classified.retryAfterMs ?? 0) - (midnight - now.getTime()))).toBeLessThan(
      5_000,
    );
  });

  it('tells an expired token (refreshed) from a revoked one (reconnect)', async () => {
    const member = standIn.addMember('Grace Hopper');
    const own = { accessToken: member.token, refreshToken: member.refreshToken };
    standIn.expire(member.token);
    const expired = await failure(
      linkedin.publish(
        target([{ text: 'Expired' }], { as: member.urn, credentials: own }).request,
        context,
      ),
    );
    expect(linkedin.classify(expired)).toEqual({
      class: 'token_expired',
      message: 'The token used in the request has expired',
    });
    const refreshed = await linkedin.refresh(own, context);
    expect(Date.parse(refreshed.expiresAt ?? '') - Date.now()).toBeGreaterThan(59 * 86_400_000);
    await linkedin.publish(
      target([{ text: 'Refreshed' }], { as: member.urn, credentials: refreshed }).request,
      context,
    );

    standIn.revoke(refreshed.accessToken);
    const revoked = await failure(
      linkedin.publish(
        target([{ text: 'Revoked' }], { as: member.urn, credentials: refreshed }).request,
        context,
      ),
    );
    expect(linkedin.classify(revoked)).toEqual({
      class: 'revoked',
      message: 'The token used in the request has been revoked by the user',
    });
    const refusal = await failure(linkedin.refresh(refreshed, context));
    expect(linkedin.classify(refusal)).toEqual({
      class: 'revoked',
      message: 'The provided authorization grant or refresh token is invalid, expired or revoked',
    });
    expect(
      linkedin.classify(await failure(linkedin.refresh({ accessToken: 'x' }, context))).class,
    ).toBe('revoked');
  });

  it('refuses a document beside other attachments, and a comment over 1,250 characters, before publishing', () => {
    expect(
      linkedin.validate({
        parts: [{ text: '', media: [mediaFacts('application/pdf'), mediaFacts('image/png')] }],
      }),
    ).toEqual([
      { path: 'mediaIds', message: 'On LinkedIn a document must be the only attachment.' },
    ]);
    expect(
      linkedin.validate({
        parts: [{ text: '', media: [mediaFacts('image/jpeg'), mediaFacts('image/png')] }],
        firstComment: 'é'.repeat(1250),
      }),
    ).toEqual([]);
    expect(
      linkedin.validate({ parts: [{ text: '', media: [] }], firstComment: 'é'.repeat(1251) }),
    ).toEqual([
      { path: 'firstComment', message: 'A LinkedIn comment takes at most 1250 characters.' },
    ]);
  });
});

describe('LinkedIn metrics', () => {
  it("reads an organisation's share statistics", async () => {
    const { externalId } = await linkedin.publish(
      target([{ text: 'Counted' }], { as: organization }).request,
      context,
    );
    standIn.engage(externalId, { likes: 4, shares: 2, impressions: 100, clicks: 7 });
    const figures = await linkedin.metrics(
      [externalId],
      { externalId: organization, credentials: credentials() },
      context,
    );
    expect(figures.get(externalId)).toEqual({
      impression: 100,
      click: 7,
      like: 4,
      comment: 0,
      share: 2,
    });
  });

  it("reads a member's likes and comments where the app has r_member_social, and refuses it otherwise", async () => {
    const member = standIn.addMember('Katherine Johnson', [
      ...LINKEDIN_MEMBER_SCOPES,
      'r_member_social',
    ]);
    const own = { accessToken: member.token };
    const { externalId } = await linkedin.publish(
      target([{ text: 'Mine' }], { as: member.urn, credentials: own, firstComment: 'Hi' }).request,
      context,
    );
    standIn.engage(externalId, { likes: 3 });
    const figures = await linkedin.metrics(
      [externalId, 'urn:li:share:1'],
      { externalId: member.urn, credentials: own },
      context,
    );
    expect(Object.fromEntries(figures)).toEqual({ [externalId]: { like: 3, comment: 1 } });
    const error = await failure(
      linkedin.metrics(
        [externalId],
        { externalId: standIn.member.urn, credentials: credentials() },
        context,
      ),
    );
    expect(linkedin.classify(error)).toEqual({
      class: 'rejected',
      message: 'Not enough permissions to access: partnerApiSocialActions.GET',
    });
  });
});
