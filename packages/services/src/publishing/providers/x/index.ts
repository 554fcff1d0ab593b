import { NETWORK_LIMITS } from '@chorus/validators';
import { z } from 'zod';
import type { PostFigures, Provider } from '../../provider';
import { batches, requestJson } from '../common/json';
import { ProviderError } from '../common/provider-error';
import { publishReplyChain, replyChainHead, replyChainKeep } from '../common/reply-chain';
import { xApi } from './api';
import { classifyX } from './classify';
import { uploadXMedia } from './media';

/** `GET /2/tweets` takes up to 100 ids. */
const LOOKUP_BATCH = 100;
/** X Premium subscribers (any tier but `None`) may post up to 25,000 characters. */
const LONG_POST_LENGTH = 25_000;

const ZMe = z.object({
  data: z.object({
    id: z.string(),
    name: z.string(),
    username: z.string(),
    profile_image_url: z.string().optional(),
    subscription_type: z.string().optional(),
  }),
});
const ZCreated = z.object({ data: z.object({ id: z.string() }) });
const ZLookup = z.object({
  data: z
    .array(
      z.object({
        id: z.string(),
        public_metrics: z
          .object({
            like_count: z.number(),
            retweet_count: z.number(),
            quote_count: z.number(),
            reply_count: z.number(),
            impression_count: z.number().optional(),
          })
          .optional(),
      }),
    )
    .optional(),
});
const ZToken = z.object({
  access_token: z.string(),
  refresh_token: z.string().optional(),
  expires_in: z.number().optional(),
});

/** Where a person sees a post: by its author's handle, or X's handle-less permalink. */
const postUrl = (handle: string, id: string) => {
  const username = handle.replace(/^@/, '');
  return /^\w{1,15}$/.test(username)
    ? `https://x.com/${username}/status/${id}`
    : `https://x.com/i/web/status/${id}`;
};

/**
 * X (API v2): posts with up to 4 images or one video or GIF, uploaded through the v2 media
 * endpoints; threads and the first comment as replies, progress saved after each post. X has
 * no idempotency key, so `idempotent` is false: after an unknown outcome the engine marks the
 * target `unconfirmed` rather than risk a second post.
 */
export const xProvider: Provider = {
  network: 'x',
  name: 'X',
  limits: NETWORK_LIMITS.x,
  idempotent: false,
  async discoverChannels(credentials, context) {
    const api = xApi(context, credentials.accessToken);
    const { data: me } = ZMe.parse(
      await api.get('/2/users/me?user.fields=profile_image_url,subscription_type'),
    );
    const subscriber = me.subscription_type !== undefined && me.subscription_type !== 'None';
    return [
      {
        externalId: me.id,
        name: me.name,
        handle: `@${me.username}`,
        avatarUrl: me.profile_image_url ?? null,
        kind: 'account',
        limits: subscriber ? { maxLength: LONG_POST_LENGTH } : undefined,
      },
    ];
  },
  validate(target) {
    return target.parts.flatMap((part, index) =>
      part.media.length > 1 && part.media.some((item) => item.mimeType === 'image/gif')
        ? [
            {
              path: index === 0 ? 'mediaIds' : `thread[${index - 1}].mediaIds`,
              message: 'On X an animated GIF must be the only attachment.',
            },
          ]
        : [],
    );
  },
  publish(request, context) {
    const api = xApi(context, request.channel.credentials.accessToken);
    return publishReplyChain(request, async (next) => {
      const mediaIds = await uploadXMedia(api, next.media);
      const created = ZCreated.parse(
        await api.post('/2/tweets', {
          ...(next.text !== '' && { text: next.text }),
          ...(mediaIds.length > 0 && { media: { media_ids: mediaIds } }),
          ...(next.inReplyTo !== null && { reply: { in_reply_to_tweet_id: next.inReplyTo } }),
        }),
      );
      return { id: created.data.id, url: postUrl(request.channel.handle, created.data.id) };
    });
  },
  /** OAuth 2.0 refresh (`grant_type=refresh_token`, our client in HTTP Basic); X answers a new refresh token each time. */
  async refresh(credentials, context) {
    if (!credentials.refreshToken) {
      throw new ProviderError({
        class: 'revoked',
        message: 'X gave this connection no refresh token: connect it again.',
      });
    }
    if (!context.oauth) {
      throw new ProviderError({
        class: 'rejected',
        message: "X's OAuth client is not configured.",
      });
    }
    const { clientId, clientSecret, tokenUrl } = context.oauth;
    const basic = Buffer.from(
      `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`,
    ).toString('base64');
    const { data } = await requestJson(tokenUrl, {
      method: 'POST',
      signal: context.signal,
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: credentials.refreshToken,
      }).toString(),
    });
    const token = ZToken.parse(data);
    return {
      accessToken: token.access_token,
      refreshToken: token.refresh_token ?? credentials.refreshToken,
      expiresAt: token.expires_in
        ? new Date(Date.now() + token.expires_in * 1000).toISOString()
        : undefined,
      extra: credentials.extra,
    };
  },
  head: replyChainHead,
  keepParts: replyChainKeep,
  classify: classifyX,
  async metrics(externalIds, channel, context) {
    const api = xApi(context, channel.credentials.accessToken);
    const wanted = new Set(externalIds);
    const figures = new Map<string, PostFigures>();
    for (const batch of batches(externalIds, LOOKUP_BATCH)) {
      const ids = batch.map(encodeURIComponent).join(',');
      const { data = [] } = ZLookup.parse(
        await api.get(`/2/tweets?ids=${ids}&tweet.fields=public_metrics`),
      );
      for (const post of data) {
        const counts = post.public_metrics;
        if (!counts || !wanted.has(post.id)) continue;
        figures.set(post.id, {
          like: counts.like_count,
          share: counts.retweet_count + counts.quote_count,
          comment: counts.reply_count,
          ...(counts.impression_count !== undefined && { impression: counts.impression_count }),
        });
      }
    }
    return figures;
  },
};
