import { NETWORK_LIMITS } from '@chorus/validators';
import { z } from 'zod';
import type { Provider, PublishMedia, PublishPart, PublishProgress } from '../provider';
import { publishContainer, released, type ContainerApi } from './meta/containers';
import { ProviderError } from './common/provider-error';
import { classifyGraph } from './meta/errors';
import { fromStorage, Graph, longLivedTokens, ZId, type GraphParams } from './meta/graph';
import { insights, readFigures } from './meta/insights';
import { Progress } from './meta/progress';

/**
 * Threads through the Threads API (graph.threads.net; https://developers.facebook.com/docs/threads/posts):
 * text, an image, a video or a carousel of up to 20, each a container made from the media's
 * signed URL and published with `threads_publish`; a thread is a chain of posts, each a reply
 * (`reply_to_id`) to the one before; the first comment is a reply to the thread's first post.
 */

const ZProfile = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string().optional(),
  threads_profile_picture_url: z.string().optional(),
});
const ZStatus = z.object({
  status: z.enum(['IN_PROGRESS', 'FINISHED', 'ERROR', 'EXPIRED', 'PUBLISHED']),
  error_message: z.string().optional(),
});
const ZPermalink = z.object({ permalink: z.string() });
const tokens = longLivedTokens('th');
/** The thread's posts published so far, in order. */
const posted = (progress: PublishProgress) => (Array.isArray(progress.posts) ? progress.posts : []);
const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/** Threads' image specifications: an aspect ratio of at most 10:1 either way. */
const MAX_RATIO = 10;

function containers(
  graph: Graph,
  profile: string,
  part: PublishPart,
  replyTo?: string,
): ContainerApi {
  const create = async (params: GraphParams) =>
    (await graph.post(`${profile}/threads`, ZId, params, true)).id;
  // An empty text is left out: media posts may have none, replies say what they answer.
  const words = { text: part.text || undefined, reply_to_id: replyTo };
  const media = async (item: PublishMedia): Promise<GraphParams> => {
    const url = await fromStorage(() => item.signedUrl());
    const video = item.mimeType.startsWith('video/');
    return video
      ? { media_type: 'VIDEO', video_url: url, alt_text: item.altText }
      : { media_type: 'IMAGE', image_url: url, alt_text: item.altText };
  };
  return {
    name: 'Threads',
    async status(id) {
      const { status, error_message } = await graph.get(id, ZStatus, {
        fields: 'status,error_message',
      });
      return { status, detail: error_message };
    },
    async single() {
      const [first] = part.media;
      return create({ ...(first ? await media(first) : { media_type: 'TEXT' }), ...words });
    },
    item: async (item) => create({ ...(await media(item)), is_carousel_item: 'true' }),
    carousel: (children) =>
      create({ media_type: 'CAROUSEL', children: children.join(','), ...words }),
    publish: async (id) =>
      (await graph.post(`${profile}/threads_publish`, ZId, { creation_id: id })).id,
  };
}

export const threads: Provider = {
  network: 'threads',
  name: 'Threads',
  limits: NETWORK_LIMITS.threads,
  // threads_publish takes no idempotency key; containers kept in progress stop a second post.
  idempotent: false,

  discoverChannels: (credentials, context) =>
    tokens.discover(credentials, context, async (graph) => {
      const me = await graph.get('me', ZProfile, {
        fields: 'id,username,name,threads_profile_picture_url',
      });
      return {
        externalId: me.id,
        name: me.name || me.username,
        handle: `@${me.username}`,
        avatarUrl: me.threads_profile_picture_url ?? null,
        kind: 'profile',
      };
    }),

  validate({ parts }) {
    return parts.flatMap((part, at) =>
      part.media.flatMap((item, index) => {
        if (!item.mimeType.startsWith('image/') || !item.width || !item.height) return [];
        const ratio = Math.max(item.width / item.height, item.height / item.width);
        if (ratio <= MAX_RATIO) return [];
        const field = at === 0 ? 'mediaIds' : `thread[${at - 1}].mediaIds`;
        return [
          {
            path: `${field}[${index}]`,
            message: 'Threads takes images up to a 10:1 aspect ratio.',
          },
        ];
      }),
    );
  },

  async publish(request, context) {
    const { externalId: profile, credentials } = request.channel;
    const graph = new Graph(context.apiUrl, credentials.accessToken, context.signal);
    const progress = new Progress(request);
    const { signal } = context;
    const posts = progress.list('posts');
    for (let index = posts.length; index < request.parts.length; index++) {
      const part = request.parts[index] ?? { text: '', media: [] };
      const key = `part${index}`;
      const api = containers(graph, profile, part, posts[index - 1]);
      posts.push(await publishContainer({ api, progress, key, media: part.media, signal }));
      await progress.save({ posts, ...released(key) });
    }
    const [root] = posts;
    if (!root) throw new ProviderError({ class: 'rejected', message: 'A target needs a post.' });
    let url = progress.get('url');
    if (!url) {
      // Saved: a failed comment shows it (head).
      ({ permalink: url } = await graph.get(root, ZPermalink, { fields: 'permalink' }));
      await progress.save({ url });
    }
    if (request.firstComment && !progress.get('comment')) {
      const api = containers(graph, profile, { text: request.firstComment, media: [] }, root);
      const comment = await publishContainer({ api, progress, key: 'comment', media: [], signal });
      await progress.save({ comment, ...released('comment') });
    }
    return { externalId: root, url };
  },

  refresh: (credentials, context) => tokens.refresh(credentials, context),

  head(progress) {
    const [root] = posted(progress);
    // Its permalink is asked of Threads once the whole thread is out: none before.
    return root === undefined ? undefined : { externalId: root, url: one(progress.url) ?? null };
  },
  keepParts(progress, parts): PublishProgress {
    const posts = posted(progress).slice(0, Math.max(parts, 0));
    const url = one(progress.url);
    if (posts.length === 0) return {};
    return url === undefined ? { posts } : { posts, url };
  },
  classify: (error) => classifyGraph(error, { refreshable: true }),

  metrics(ids, channel, context) {
    const graph = new Graph(context.apiUrl, channel.credentials.accessToken, context.signal);
    return readFigures(ids, async (id) => {
      const values = await insights(graph, id, ['views', 'likes', 'replies', 'reposts', 'quotes']);
      return {
        view: values.views,
        like: values.likes,
        comment: values.replies,
        share: (values.reposts ?? 0) + (values.quotes ?? 0),
      };
    });
  },
};
