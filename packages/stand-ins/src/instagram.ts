import {
  GraphError,
  graphId,
  insightsBook,
  missingObject,
  required,
  startGraphStandIn,
  type GraphRequest,
} from './graph';
import type { Fault } from './faults';
import { longLivedTokens } from './graph-login';
import { instagramPublishing } from './instagram-publishing';

export type { InstagramMedia } from './instagram-publishing';

/**
 * Instagram professional accounts on loopback, after the Instagram API with Instagram Login
 * (graph.instagram.com; https://developers.facebook.com/docs/instagram-platform/content-publishing):
 * containers from media the stand-in really fetches by URL (JPEG images up to 8 MiB, reels),
 * carousels of up to 10, `media_publish` within the 24-hour publishing limit, comments,
 * insights, and long-lived token exchange and refresh. Error codes are those of the
 * Instagram Platform's error-codes reference.
 */

const METRICS = [
  'views',
  'reach',
  'likes',
  'comments',
  'shares',
  'saved',
  'total_interactions',
] as const;

export async function startInstagram(
  options: { secret?: string; publishLimit?: number; videoPolls?: number } = {},
) {
  const login = longLivedTokens({ secret: options.secret ?? 'ig-secret', prefix: 'ig' });
  const { containers, media, publishLimit, create, publish, publishedToday } =
    instagramPublishing(options);
  const comments: { id: string; on: string; message: string }[] = [];
  const stats = insightsBook(METRICS);

  const account = (req: GraphRequest, id: string) => {
    const owner = login.check(req.token);
    if (id !== 'me' && id !== owner.id) throw missingObject(id);
    return owner;
  };

  const ownMedia = (req: GraphRequest, id: string) => {
    const owner = login.check(req.token);
    const item = media.find((m) => m.id === id);
    if (!item || item.owner !== owner.id) throw missingObject(id);
    return item;
  };

  const read = (req: GraphRequest, id: string) => {
    const owner = login.check(req.token);
    if (id === 'me' || id === owner.id) {
      return {
        id: owner.id,
        user_id: owner.id,
        username: owner.username,
        name: owner.name,
        account_type: 'BUSINESS',
        profile_picture_url: `https://cdn.example/${owner.id}.jpg`,
      };
    }
    const container = containers.all.get(id);
    if (container) {
      const read = containers.read(id, owner.id);
      return { id, status_code: read.status, ...(read.error ? { status: read.error } : {}) };
    }
    const item = ownMedia(req, id);
    const counts = stats.figures(id);
    return {
      id,
      permalink: item.permalink,
      caption: item.caption,
      media_type: item.kind,
      like_count: counts.likes ?? 0,
      comments_count: counts.comments ?? 0,
      timestamp: item.publishedAt.toISOString(),
    };
  };

  const standIn = await startGraphStandIn(async (req) => {
    const [first = '', edge, ...rest] = req.segments;
    const at = `${req.method} ${edge ?? ''}`;
    if (rest.length > 0) throw new GraphError(400, 2500, 'Unknown path components');
    const tokenAnswer = login.answer(req);
    if (tokenAnswer) return tokenAnswer;
    if (at === 'POST media') {
      return { body: { id: (await create(req, account(req, first).id)).id } };
    }
    if (at === 'POST media_publish') return { body: publish(req, account(req, first).id) };
    if (at === 'GET content_publishing_limit') {
      const owner = account(req, first);
      return {
        body: {
          data: [
            {
              quota_usage: publishedToday(owner.id),
              config: { quota_total: publishLimit, quota_duration: 86400 },
            },
          ],
        },
      };
    }
    if (at === 'POST comments') {
      const item = ownMedia(req, first);
      const id = graphId();
      comments.push({ id, on: item.id, message: required(req.params, 'message') });
      return { body: { id } };
    }
    if (at === 'GET insights') {
      const item = ownMedia(req, first);
      return {
        body: stats.answer(item.id, req.params),
      };
    }
    if (at === 'GET ') return { body: read(req, first) };
    throw missingObject(first);
  });

  return {
    ...standIn,
    media,
    comments,
    ...containers.switches,
    /** A professional account and its long-lived token: `{ id, username, name }`. */
    addAccount: login.add,
    ...login.switches,
    ...stats.switches,
  };
}

/**
 * Instagram's throttling answer for the fault switches: too many calls to the account (code
 * 80002, a business use case limit, with its usage header).
 */
export const instagramFaults = {
  rateLimited: (minutes = 3): Fault => ({
    kind: 'answer',
    answer: new GraphError(
      400,
      80002,
      'There have been too many calls to this Instagram account. Wait a bit and try again.',
      {
        headers: {
          'x-business-use-case-usage': JSON.stringify({
            '0': [
              {
                type: 'instagram',
                call_count: 100,
                total_cputime: 10,
                total_time: 10,
                estimated_time_to_regain_access: minutes,
              },
            ],
          }),
        },
      },
    ).answer(),
  }),
};

export type InstagramStandIn = Awaited<ReturnType<typeof startInstagram>>;
