import { createRequire } from 'node:module';
import type { AxiosStatic, InternalAxiosRequestConfig } from 'axios';
import { AuthClient, RestliClient } from 'linkedin-api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkedInStandIn, type LinkedInStandIn } from '../src';

/**
 * The stand-in checked with linkedin-api-client, LinkedIn's own JavaScript client: it must
 * accept what the client sends (Rest.li 2.0 encoding, its headers) and answer what it reads.
 */

const VERSION = (() => {
  const now = new Date();
  return `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
})();

// The client requires axios's CommonJS build: its global interceptors and error class are that
// module's, not those of the ES module an `import` would load.
const axios = createRequire(import.meta.url)('axios') as AxiosStatic;

let standIn: LinkedInStandIn;
const client = new RestliClient();
/** The client's addresses are LinkedIn's own: send them to the stand-in instead. */
const toStandIn = (config: InternalAxiosRequestConfig) => ({
  ...config,
  url: config.url?.replace(/^https:\/\/(api|www)\.linkedin\.com/, standIn.url),
});
client.axiosInstance.interceptors.request.use(toStandIn);
const interceptor = axios.interceptors.request.use(toStandIn);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof axios.AxiosError))
    throw new Error(`expected an AxiosError, got ${String(error)}`);
  return { status: error.response?.status, body: error.response?.data as Record<string, unknown> };
}

beforeAll(async () => {
  standIn = await startLinkedInStandIn({ videoPartBytes: 1024 });
});
afterAll(async () => {
  axios.interceptors.request.eject(interceptor);
  await standIn.close();
});

describe('LinkedIn stand-in, checked with linkedin-api-client', () => {
  it('answers OpenID userinfo, the member’s organisation roles and a batch get of organisations', async () => {
    const accessToken = standIn.member.token;
    const { data: me } = await client.get({ resourcePath: '/userinfo', accessToken });
    expect(me).toMatchObject({ sub: standIn.member.id, name: 'Ada Lovelace' });

    const urn = standIn.addOrganization('Analytical Engines', [
      [standIn.member.id, 'ADMINISTRATOR'],
    ]);
    standIn.addOrganization('Elsewhere', [[standIn.addMember('Other').id, 'ADMINISTRATOR']]);
    const { data: acls } = await client.finder({
      resourcePath: '/organizationAcls',
      finderName: 'roleAssignee',
      queryParams: { role: 'ADMINISTRATOR', state: 'APPROVED' },
      accessToken,
      versionString: VERSION,
    });
    expect(acls.elements).toEqual([
      {
        roleAssignee: standIn.member.urn,
        state: 'APPROVED',
        role: 'ADMINISTRATOR',
        organization: urn,
      },
    ]);
    const id = urn.split(':').at(-1) ?? '';
    const { data: organizations } = await client.batchGet({
      resourcePath: '/organizations',
      ids: [id],
      accessToken,
      versionString: VERSION,
    });
    expect(organizations.results[id]).toMatchObject({
      localizedName: 'Analytical Engines',
      vanityName: 'analytical-engines',
    });
  });

  it('creates a post with an uploaded image and comments on it', async () => {
    const accessToken = standIn.member.token;
    const { data: init } = await client.action({
      resourcePath: '/images',
      actionName: 'initializeUpload',
      data: { initializeUploadRequest: { owner: standIn.member.urn } },
      accessToken,
      versionString: VERSION,
    });
    const { uploadUrl, image } = init.value as { uploadUrl: string; image: string };
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const put = await fetch(uploadUrl, {
      method: 'PUT',
      body: png,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(put.status).toBe(201);
    expect(standIn.asset(image)?.status).toBe('AVAILABLE');

    const created = await client.create({
      resourcePath: '/posts',
      entity: {
        author: standIn.member.urn,
        commentary: 'Notes on the engine \\(part 1\\) {hashtag|#|Computing} #Babbage',
        visibility: 'PUBLIC',
        distribution: {
          feedDistribution: 'MAIN_FEED',
          targetEntities: [],
          thirdPartyDistributionChannels: [],
        },
        content: { media: { id: image, altText: 'A diagram' } },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      },
      accessToken,
      versionString: VERSION,
    });
    expect(created.createdEntityId).toMatch(/^urn:li:share:\d+$/);
    const [post] = standIn.published().filter((entry) => entry.urn === created.createdEntityId);
    expect(post).toMatchObject({
      text: 'Notes on the engine (part 1) #Computing #Babbage',
      media: [{ urn: image, kind: 'image' }],
    });

    const comment = await client.create({
      resourcePath: '/socialActions/{id}/comments',
      pathKeys: { id: created.createdEntityId },
      entity: {
        actor: standIn.member.urn,
        object: created.createdEntityId,
        message: { text: 'First!' },
      },
      accessToken,
      versionString: VERSION,
    });
    expect(comment.createdEntityId).toMatch(/^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);
    expect(
      standIn.published().find((entry) => entry.urn === created.createdEntityId)?.comments,
    ).toHaveLength(1);
  });

  it('uploads a video in parts and finalizes it with their ETags', async () => {
    const accessToken = standIn.member.token;
    const bytes = Buffer.alloc(2500, 7);
    const { data } = await client.action({
      resourcePath: '/videos',
      actionName: 'initializeUpload',
      data: {
        initializeUploadRequest: {
          owner: standIn.member.urn,
          fileSizeBytes: bytes.length,
          uploadCaptions: false,
          uploadThumbnail: false,
        },
      },
      accessToken,
      versionString: VERSION,
    });
    const { video, uploadInstructions } = data.value as {
      video: string;
      uploadInstructions: { uploadUrl: string; firstByte: number; lastByte: number }[];
    };
    expect(uploadInstructions.map(({ firstByte, lastByte }) => [firstByte, lastByte])).toEqual([
      [0, 1023],
      [1024, 2047],
      [2048, 2499],
    ]);
    const etags = [];
    for (const { uploadUrl, firstByte, lastByte } of uploadInstructions) {
      const res = await fetch(uploadUrl, {
        method: 'PUT',
        body: bytes.subarray(firstByte, lastByte + 1),
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/octet-stream',
        },
      });
      etags.push(res.headers.get('etag'));
    }
    await client.action({
      resourcePath: '/videos',
      actionName: 'finalizeUpload',
      data: { finalizeUploadRequest: { video, uploadToken: '', uploadedPartIds: etags } },
      accessToken,
      versionString: VERSION,
    });
    const status = async () =>
      (
        await client.get({
          resourcePath: '/videos/{id}',
          pathKeys: { id: video },
          accessToken,
          versionString: VERSION,
        })
      ).data.status;
    expect(await status()).toBe('PROCESSING');
    expect(await status()).toBe('AVAILABLE');
    expect(standIn.asset(video)?.size).toBe(2500);
  });

  it('refreshes a token through the OAuth client, and refuses tokens and versions as LinkedIn does', async () => {
    const { token, refreshToken } = standIn.addMember('Charles Babbage');
    const auth = new AuthClient({
      clientId: standIn.app.clientId,
      clientSecret: standIn.app.clientSecret,
    });
    const refreshed = await auth.exchangeRefreshTokenForAccessToken(refreshToken);
    expect(refreshed.access_token).not.toBe(token);
    expect(refreshed.expires_in).toBe(5_184_000);

    standIn.expire(token);
    expect(await refusal(client.get({ resourcePath: '/userinfo', accessToken: token }))).toEqual({
      status: 401,
      body: {
        status: 401,
        serviceErrorCode: 65602,
        code: 'EXPIRED_ACCESS_TOKEN',
        message: 'The token used in the request has expired',
      },
    });
    standIn.revoke(refreshed.access_token);
    expect(
      (
        await refusal(
          client.get({ resourcePath: '/userinfo', accessToken: refreshed.access_token }),
        )
      ).body,
    ).toMatchObject({
      serviceErrorCode: 65601,
    });
    const old = await refusal(
      client.finder({
        resourcePath: '/organizationAcls',
        finderName: 'roleAssignee',
        accessToken: standIn.member.token,
        versionString: '202001',
      }),
    );
    expect(old).toEqual({
      status: 426,
      body: expect.objectContaining({ code: 'NONEXISTENT_VERSION' }),
    });
  });

  it('refuses a post over 3,000 characters, unescaped reserved characters and duplicates', async () => {
    const post = (commentary: string) =>
      client.create({
        resourcePath: '/posts',
        entity: {
          author: standIn.member.urn,
          commentary,
          visibility: 'PUBLIC',
          distribution: {
            feedDistribution: 'MAIN_FEED',
            targetEntities: [],
            thirdPartyDistributionChannels: [],
          },
          lifecycleState: 'PUBLISHED',
        },
        accessToken: standIn.member.token,
        versionString: VERSION,
      });
    expect((await refusal(post('x'.repeat(3001)))).status).toBe(422);
    expect((await refusal(post('Ends with (parentheses)'))).body.message).toContain(
      "reserved character '('",
    );
    const first = await post('Once only');
    expect((await refusal(post('Once only'))).body).toMatchObject({
      status: 422,
      message: `Content is a duplicate of ${first.createdEntityId}`,
    });
  });

  it("answers 429 once a member's daily posts are used up", async () => {
    const limited = await startLinkedInStandIn({ postsPerDay: 1 });
    const post = (commentary: string) =>
      fetch(`${limited.url}/rest/posts`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${limited.member.token}`,
          'content-type': 'application/json',
          'linkedin-version': VERSION,
          'x-restli-protocol-version': '2.0.0',
        },
        body: JSON.stringify({
          author: limited.member.urn,
          commentary,
          visibility: 'PUBLIC',
          distribution: { feedDistribution: 'MAIN_FEED' },
          lifecycleState: 'PUBLISHED',
        }),
      });
    try {
      expect((await post('One')).status).toBe(201);
      const second = await post('Two');
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    } finally {
      await limited.close();
    }
  });
});
