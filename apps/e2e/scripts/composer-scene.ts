/**
 * The scene for the composer's and the post page's screenshots: Bluesky's reference PDS and a
 * Mastodon stand-in, both connected to the running app with `key`, an image in the library,
 * and a post published to both channels (the app's worker sends it). The networks run in this
 * process: stop them with `close()` once the pictures are taken.
 */
import { startMastodonStandIn } from '@chorus/stand-ins';
import { startBlueskyPds } from '@chorus/stand-ins/bluesky-pds';
import { png } from '../test/png';

export const SHARED_TEXT =
  'Our spring collection is out today: 24 pieces made from recycled cotton, in five colours. ' +
  'See it first at https://example.com/spring and tell us your favourite.';
export const MASTODON_TEXT =
  'Spring collection day! 24 pieces, recycled cotton, five colours. ' +
  'Browse it at https://example.com/spring #SlowFashion #Spring';

export async function composerScene(base: string, key: string) {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { data: unknown; error?: { message: string } };
    if (!response.ok) throw new Error(`${method} ${path}: ${json.error?.message}`);
    return json.data as Record<string, unknown>;
  };
  const pds = await startBlueskyPds();
  const mastodon = await startMastodonStandIn({ domain: 'mastodon.example' });
  const account = await pds.createAccount('northwind.test');
  await api('POST', '/api/integrations/connect/bluesky', {
    handle: account.handle,
    apiKey: account.appPassword,
    serviceUrl: pds.url,
  });
  const shop = mastodon.addAccount({ username: 'northwind', displayName: 'Northwind Studio' });
  await api('POST', '/api/integrations/connect/mastodon', {
    apiKey: shop.token,
    serviceUrl: mastodon.url,
  });
  const channels = (await api('GET', '/api/content/channels')) as unknown as {
    id: string;
    integrationId: string;
  }[];
  const channelOf = (network: string) => channels.find((c) => c.integrationId === network)?.id;

  const upload = new FormData();
  const image = png(1200, 675, [79, 70, 229]);
  upload.append(
    'file',
    new Blob([new Uint8Array(image)], { type: 'image/png' }),
    'spring-collection.png',
  );
  const uploaded = await fetch(`${base}/api/content/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: upload,
  });
  const media = ((await uploaded.json()) as { data: { id: string } }).data;

  const post = await api('POST', '/api/content/posts', {
    title: 'Spring collection launch',
    content: SHARED_TEXT,
    tags: ['launch', 'spring'],
    mediaIds: [media.id],
    status: 'published',
    targets: [
      { channelId: channelOf('bluesky') },
      { channelId: channelOf('mastodon'), content: MASTODON_TEXT },
    ],
  });
  const id = post.id as string;
  // The worker publishes it within seconds.
  for (let i = 0; i < 60; i += 1) {
    const { status } = await api('GET', `/api/content/posts/${id}`);
    if (status === 'published' || status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return {
    postId: id,
    async close() {
      await mastodon.close();
      await pds.close();
    },
  };
}
