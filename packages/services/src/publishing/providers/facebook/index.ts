import { NETWORK_LIMITS } from '@chorus/validators';
import { z } from 'zod';
import type { Provider, ProviderContext, ProviderCredentials } from '../../provider';
import { singlePost } from '../common/single-post';
import { classifyGraph } from '../meta/errors';
import { Graph, tokenRequest, ZId } from '../meta/graph';
import { readFigures } from '../meta/insights';
import { Progress } from '../meta/progress';
import { createPost } from './posts';

/**
 * Facebook Pages through the Pages API (https://developers.facebook.com/docs/pages-api/posts):
 * each Page of the login is a channel with its own Page access token; text and links go to
 * `/{page-id}/feed`, one photo to `/{page-id}/photos`, several as unpublished photos attached to
 * a feed post (`attached_media`), a video to `/{page-id}/videos` on the video host; the first
 * comment to `/{object-id}/comments`. Media are streamed from storage as multipart uploads.
 */

const ZAccounts = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      username: z.string().optional(),
      access_token: z.string().min(1),
      picture: z.object({ data: z.object({ url: z.string() }) }).optional(),
      tasks: z.array(z.string()).optional(),
    }),
  ),
  paging: z
    .object({ cursors: z.object({ after: z.string() }).optional(), next: z.string().optional() })
    .optional(),
});
const ZPermalink = z.object({ permalink_url: z.string() });
const ZCounts = z.object({
  reactions: z.object({ summary: z.object({ total_count: z.number() }) }).optional(),
  comments: z.object({ summary: z.object({ total_count: z.number() }) }).optional(),
  shares: z.object({ count: z.number() }).optional(),
});

/** Guards against a paging loop: 100 Pages a page, 5,000 at most. */
const MAX_ACCOUNT_PAGES = 50;
/** Trades a user token for a long-lived one (sixty days) at the token endpoint: fb_exchange_token. */
const longLivedUser = (credentials: ProviderCredentials, context: ProviderContext) =>
  context.oauth
    ? tokenRequest(
        new URL(
          `${context.oauth.tokenUrl}?${new URLSearchParams({
            grant_type: 'fb_exchange_token',
            client_id: context.oauth.clientId,
            client_secret: context.oauth.clientSecret,
            fb_exchange_token: credentials.accessToken,
          })}`,
        ),
        context.signal,
      )
    : undefined;

export const facebook: Provider = {
  network: 'facebook',
  name: 'Facebook',
  limits: NETWORK_LIMITS.facebook,
  // The Pages API takes no idempotency key: an unknown outcome becomes `unconfirmed`.
  idempotent: false,

  async discoverChannels(credentials, context) {
    // Page tokens got with a long-lived user token never expire; with the one-hour token the
    // OAuth code exchange gives, they would last an hour. So trade it first (fb_exchange_token).
    const user = (await longLivedUser(credentials, context)) ?? credentials;
    const graph = new Graph(context.apiUrl, user.accessToken, context.signal);
    const pages: z.infer<typeof ZAccounts>['data'] = [];
    let after: string | undefined;
    for (let turn = 0; turn < MAX_ACCOUNT_PAGES; turn++) {
      const answer = await graph.get('me/accounts', ZAccounts, {
        fields: 'id,name,username,access_token,picture{url},tasks',
        limit: '100',
        ...(after ? { after } : {}),
      });
      pages.push(...answer.data);
      after = answer.paging?.cursors?.after;
      if (!answer.paging?.next || !after) break;
    }
    return pages
      .filter((page) => !page.tasks || page.tasks.includes('CREATE_CONTENT'))
      .map((page) => ({
        externalId: page.id,
        name: page.name,
        handle: page.username ?? page.id,
        avatarUrl: page.picture?.data.url ?? null,
        kind: 'page' as const,
        credentials: { accessToken: page.access_token },
      }));
  },

  validate: () => [],

  async publish(request, context) {
    const { externalId: page, credentials } = request.channel;
    const graph = new Graph(context.apiUrl, credentials.accessToken, context.signal);
    const progress = new Progress(request);
    const part = request.parts[0] ?? { text: '', media: [] };
    let postId = progress.get('post');
    if (!postId) {
      postId = await createPost(graph, page, part, progress, context.apiUrl);
      await progress.save({ post: postId, photos: undefined });
    }
    let url = progress.get('url');
    if (!url) {
      const { permalink_url } = await graph.get(postId, ZPermalink, { fields: 'permalink_url' });
      // Videos' permalinks are relative to facebook.com. Saved: a failed comment shows it (head).
      url = new URL(permalink_url, 'https://www.facebook.com').href;
      await progress.save({ url });
    }
    if (request.firstComment && !progress.get('comment')) {
      const { id } = await graph.post(`${postId}/comments`, ZId, { message: request.firstComment });
      await progress.save({ comment: id });
    }
    return { externalId: postId, url };
  },

  ...singlePost('post'),

  /**
   * The connection's user token is traded again for a long-lived one (sixty days). Channels
   * need no refresh: Page tokens got with a long-lived user token do not expire; one that stops
   * working was revoked (password changed, app removed, role lost), classified as such.
   */
  async refresh(credentials, context) {
    const user = await longLivedUser(credentials, context);
    if (!user) throw new Error('Refreshing a Facebook token needs our app credentials.');
    return user;
  },

  classify: (error) => classifyGraph(error, { refreshable: false }),

  metrics(ids, channel, context) {
    const graph = new Graph(context.apiUrl, channel.credentials.accessToken, context.signal);
    return readFigures(ids, async (id) => {
      // Posts are `{page-id}_{post-id}`; a video's id is bare, and videos have no shares.
      const video = !id.includes('_');
      const fields = `reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)${video ? '' : ',shares'}`;
      const counts = await graph.get(id, ZCounts, { fields });
      return {
        like: counts.reactions?.summary.total_count ?? 0,
        comment: counts.comments?.summary.total_count ?? 0,
        ...(video ? {} : { share: counts.shares?.count ?? 0 }),
      };
    });
  },
};
