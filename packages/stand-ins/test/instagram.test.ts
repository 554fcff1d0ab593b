import { FacebookAdsApi, IGMedia, IGUser } from 'facebook-nodejs-business-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstagram, startMediaHost, type InstagramStandIn } from '../src';

/**
 * The Instagram stand-in checked with Meta's Node SDK (facebook-nodejs-business-sdk), whose
 * IGUser and IGMedia objects call the same content-publishing paths (`/{ig-user-id}/media`,
 * `/media_publish`, `/{ig-media-id}/comments`): a container made from a URL the stand-in
 * fetches, published, commented, and Instagram's error codes as the SDK parses them.
 */
let ig: InstagramStandIn;
let media: Awaited<ReturnType<typeof startMediaHost>>;
let userId: string;

const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1024, 1)]);
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(1024, 1)]);

beforeAll(async () => {
  ig = await startInstagram();
  media = await startMediaHost();
  ({ id: userId } = ig.addAccount({ token: 'ig-token', username: 'chorus.cafe' }));
  Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => ig.url, configurable: true });
  FacebookAdsApi.init('ig-token', 'en_US', false);
});
afterAll(async () => {
  await ig.close();
  await media.close();
});

describe('the Instagram stand-in, through the Business SDK', () => {
  it('publishes a container made from a fetched JPEG, then comments on it', async () => {
    const photo = media.add(jpeg, { mimeType: 'image/jpeg' });
    const container = await new IGUser(userId).createMedia([], {
      image_url: await photo.signedUrl(),
      caption: 'Hello',
    });
    expect(media.fetches()).toContain(photo.id);
    const status = await new IGMedia(container.id).get(['status_code']);
    expect(status._data.status_code).toBe('FINISHED');
    const published = await new IGUser(userId).createMediaPublish([], {
      creation_id: container.id,
    });
    const comment = await new IGMedia(published.id).createComment([], { message: 'First!' });
    expect(ig.media.at(-1)).toMatchObject({ id: published.id, caption: 'Hello' });
    expect(ig.comments.at(-1)).toMatchObject({ id: comment.id, on: published.id });
  });

  it("refuses what Instagram refuses, in Instagram's error codes", async () => {
    const notJpeg = media.add(png, { mimeType: 'image/png' });
    const refused = await new IGUser(userId)
      .createMedia([], { image_url: await notJpeg.signedUrl() })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 400,
      response: { code: 36001, error_subcode: 2207005 },
    });
    const missing = await new IGUser(userId)
      .createMedia([], { image_url: `${media.url}/nothing-here` })
      .catch((error: unknown) => error);
    expect(missing).toMatchObject({ response: { code: 9004, error_subcode: 2207052 } });
  });
});
