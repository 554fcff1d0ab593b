import {
  GraphError,
  insightsBook,
  missingObject,
  startGraphStandIn,
  type GraphRequest,
} from './graph';
import type { Fault } from './faults';
import { longLivedTokens } from './graph-login';
import { threadsPublishing } from './threads-publishing';

export type { ThreadsPost } from './threads-publishing';

/**
 * Threads on loopback, after the Threads API (graph.threads.net;
 * https://developers.facebook.com/docs/threads/posts): containers (`TEXT`, `IMAGE`, `VIDEO`,
 * `CAROUSEL` of 2 to 20 items, replies with `reply_to_id`) published with `threads_publish`,
 * container status with the troubleshooting guide's error messages, media the stand-in really
 * fetches (JPEG or PNG up to 8 MB, MP4 up to 1 GB), text up to 500 characters counted as
 * Threads does (emoji as their UTF-8 bytes), insights, and long-lived token exchange and refresh.
 */

const METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;

export async function startThreads(options: { secret?: string; videoPolls?: number } = {}) {
  const login = longLivedTokens({ secret: options.secret ?? 'th-secret', prefix: 'th' });
  const { containers, posts, create, publish } = threadsPublishing(options);
  const stats = insightsBook(METRICS);

  const profile = (req: GraphRequest, id: string) => {
    const owner = login.check(req.token);
    if (id !== 'me' && id !== owner.id) throw missingObject(id);
    return owner;
  };

  const read = (req: GraphRequest, id: string) => {
    const owner = login.check(req.token);
    if (id === 'me' || id === owner.id) {
      return {
        id: owner.id,
        username: owner.username,
        name: owner.name,
        threads_profile_picture_url: `https://cdn.example/${owner.id}.jpg`,
      };
    }
    if (containers.all.has(id)) {
      const container = containers.read(id, owner.id);
      return {
        id,
        status: container.status,
        ...(container.error ? { error_message: container.error } : {}),
      };
    }
    const post = posts.find((p) => p.id === id && p.owner === owner.id);
    if (!post) throw missingObject(id);
    return {
      id,
      permalink: post.permalink,
      text: post.text,
      media_type: `${post.kind}_POST`,
      is_reply: Boolean(post.replyTo),
      username: owner.username,
    };
  };

  const standIn = await startGraphStandIn(async (req) => {
    const [first = '', edge, ...rest] = req.segments;
    const at = `${req.method} ${edge ?? ''}`;
    if (rest.length > 0) throw new GraphError(400, 2500, 'Unknown path components');
    const tokenAnswer = login.answer(req);
    if (tokenAnswer) return tokenAnswer;
    if (at === 'POST threads') return { body: { id: (await create(req, profile(req, first))).id } };
    if (at === 'POST threads_publish') return { body: publish(req, profile(req, first)) };
    if (at === 'GET insights') {
      const owner = login.check(req.token);
      if (!posts.some((post) => post.id === first && post.owner === owner.id))
        throw missingObject(first);
      return {
        body: stats.answer(first, req.params),
      };
    }
    if (at === 'GET ') return { body: read(req, first) };
    throw missingObject(first);
  });

  return {
    ...standIn,
    posts,
    ...containers.switches,
    /** A Threads profile and its long-lived token: `{ id, username, name }`. */
    addProfile: login.add,
    ...login.switches,
    ...stats.switches,
  };
}

/** Threads' throttling answer for the fault switches: the app's calls used up (code 4). */
export const threadsFaults = {
  rateLimited: (): Fault => ({
    kind: 'answer',
    answer: new GraphError(400, 4, 'Application request limit reached', {
      headers: {
        'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 40, total_time: 60 }),
      },
    }).answer(),
  }),
};

export type ThreadsStandIn = Awaited<ReturnType<typeof startThreads>>;
