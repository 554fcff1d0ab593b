import { NETWORK_LIMITS } from '@chorus/validators';
import { z } from 'zod';
import type { Provider, PublishMedia, PublishPart } from '../provider';
import {
  publishContainer,
  released,
  type ContainerApi,
  type ContainerStatus,
} from './meta/containers';
import { ProviderError } from './common/provider-error';
import { singlePost } from './common/single-post';
import { classifyGraph } from './meta/errors';
import { fromStorage, Graph, longLivedTokens, ZId, type GraphParams } from './meta/graph';
import { insights, readFigures } from './meta/insights';
import { Progress } from './meta/progress';

/**
 * Instagram professional accounts through the Instagram API with Instagram Login
 * (graph.instagram.com; https://developers.facebook.com/docs/instagram-platform/content-publishing):
 * one image, a reel (a video), or a carousel of up to 10, each a container made from the
 * media's signed URL, polled, then published with `media_publish`; the first comment on
 * `/{ig-media-id}/comments`. Instagram takes no post without media.
 */

const ZProfile = z.object({
  user_id: z.union([z.string(), z.number()]).transform(String),
  username: z.string(),
  name: z.string().optional(),
  profile_picture_url: z.string().optional(),
});
const ZStatus = z.object({
  status_code: z.enum(['IN_PROGRESS', 'FINISHED', 'ERROR', 'EXPIRED', 'PUBLISHED']),
  status: z.string().optional(),
});
const ZPermalink = z.object({ permalink: z.string() });
const tokens = longLivedTokens('ig');

/** Instagram's image specifications: aspect ratios from 4:5 to 1.91:1. */
const RATIO = { min: 4 / 5, max: 1.91 };
/** The caption's other limits: 30 hashtags and 20 @ tags. */
const CAPTION_TAGS = { hashtags: 30, mentions: 20 };

function containers(graph: Graph, account: string, part: PublishPart): ContainerApi {
  const create = async (params: GraphParams) =>
    (await graph.post(`${account}/media`, ZId, params, true)).id;
  const media = async (item: PublishMedia, carouselItem: boolean): Promise<GraphParams> => {
    const url = await fromStorage(() => item.signedUrl());
    return item.mimeType.startsWith('video/')
      ? { media_type: carouselItem ? 'VIDEO' : 'REELS', video_url: url }
      : { image_url: url, alt_text: item.altText };
  };
  return {
    name: 'Instagram',
    async status(id) {
      const { status_code, status } = await graph.get(id, ZStatus, {
        fields: 'status_code,status',
      });
      return { status: status_code satisfies ContainerStatus, detail: status };
    },
    async single() {
      const [first] = part.media;
      if (!first) {
        throw new ProviderError({
          class: 'rejected',
          message: 'Instagram needs an image or a video.',
        });
      }
      return create({ ...(await media(first, false)), caption: part.text });
    },
    item: async (item) => create({ ...(await media(item, true)), is_carousel_item: 'true' }),
    carousel: (children) =>
      create({ media_type: 'CAROUSEL', children: children.join(','), caption: part.text }),
    publish: async (id) =>
      (await graph.post(`${account}/media_publish`, ZId, { creation_id: id })).id,
  };
}

export const instagram: Provider = {
  network: 'instagram',
  name: 'Instagram',
  limits: NETWORK_LIMITS.instagram,
  // media_publish takes no idempotency key; containers kept in progress stop a second post.
  idempotent: false,

  discoverChannels: (credentials, context) =>
    tokens.discover(credentials, context, async (graph) => {
      const me = await graph.get('me', ZProfile, {
        fields: 'user_id,username,name,profile_picture_url',
      });
      return {
        externalId: me.user_id,
        name: me.name || me.username,
        handle: `@${me.username}`,
        avatarUrl: me.profile_picture_url ?? null,
        kind: 'account',
      };
    }),

  validate({ parts }) {
    const [first] = parts;
    if (!first) return [];
    const issues: { path: string; message: string }[] = [];
    first.media.forEach((item, index) => {
      if (!item.mimeType.startsWith('image/') || !item.width || !item.height) return;
      const ratio = item.width / item.height;
      if (ratio < RATIO.min - 0.005 || ratio > RATIO.max + 0.005) {
        issues.push({
          path: `mediaIds[${index}]`,
          message: `Instagram takes images from 4:5 to 1.91:1; this one is ${item.width}×${item.height}.`,
        });
      }
    });
    const hashtags = first.text.match(/(^|\s)#[\p{L}\p{N}_]+/gu)?.length ?? 0;
    const mentions = first.text.match(/(^|\s)@[\w.]+/gu)?.length ?? 0;
    if (hashtags > CAPTION_TAGS.hashtags || mentions > CAPTION_TAGS.mentions) {
      issues.push({
        path: 'content',
        message: `An Instagram caption takes at most ${CAPTION_TAGS.hashtags} hashtags and ${CAPTION_TAGS.mentions} @ tags.`,
      });
    }
    return issues;
  },

  async publish(request, context) {
    const { externalId: account, credentials } = request.channel;
    const graph = new Graph(context.apiUrl, credentials.accessToken, context.signal);
    const progress = new Progress(request);
    const part = request.parts[0] ?? { text: '', media: [] };
    let mediaId = progress.get('media');
    if (!mediaId) {
      const api = containers(graph, account, part);
      mediaId = await publishContainer({
        api,
        progress,
        key: 'post',
        media: part.media,
        signal: context.signal,
      });
      await progress.save({ media: mediaId, ...released('post') });
    }
    let url = progress.get('url');
    if (!url) {
      // Saved: a failed comment shows it (head).
      ({ permalink: url } = await graph.get(mediaId, ZPermalink, { fields: 'permalink' }));
      await progress.save({ url });
    }
    if (request.firstComment && !progress.get('comment')) {
      const { id } = await graph.post(`${mediaId}/comments`, ZId, {
        message: request.firstComment,
      });
      await progress.save({ comment: id });
    }
    return { externalId: mediaId, url };
  },

  ...singlePost('media'),

  refresh: (credentials, context) => tokens.refresh(credentials, context),

  classify: (error) => classifyGraph(error, { refreshable: true }),

  metrics(ids, channel, context) {
    const graph = new Graph(context.apiUrl, channel.credentials.accessToken, context.signal);
    return readFigures(ids, async (id) => {
      const values = await insights(graph, id, ['views', 'likes', 'comments', 'shares']);
      return {
        view: values.views,
        like: values.likes,
        comment: values.comments,
        share: values.shares,
      };
    });
  },
};
