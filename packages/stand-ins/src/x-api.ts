import type { IncomingMessage } from 'node:http';
import twitter from 'twitter-text';
import type { Answer } from './faults';
import type { Params } from './params';
import type { RouteEntry } from './routes';
import {
  invalidRequest,
  nextXId,
  problem,
  unauthorized,
  type XGrant,
  type XTweet,
  type XUser,
  type XWorld,
} from './x-world';

/** X API v2 posts and users: `POST /2/tweets`, `GET /2/tweets`, `GET /2/users/me`. */

export interface XContext {
  req: IncomingMessage;
  params: Params;
  query: URLSearchParams;
  grant: XGrant | undefined;
}

const STANDARD_LENGTH = 280;
/** Subscribers (any tier but `None`) may post long texts. */
const LONG_LENGTH = 25_000;
const MAX_MEDIA = 4;
const MAX_LOOKUP = 100;
const TOO_LONG =
  'Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text.';

export const forbidden = (detail = 'You are not permitted to perform this action.') =>
  problem(403, 'Forbidden', detail);

export function userWith(world: XWorld, ctx: XContext, scope: string): XUser | Answer {
  if (!ctx.grant) return unauthorized();
  if (!ctx.grant.scopes.includes(scope)) return forbidden();
  return world.users.get(ctx.grant.userId) ?? unauthorized();
}

const isUser = (value: XUser | Answer): value is XUser => 'username' in value;
const fieldsOf = (query: URLSearchParams, name: string) =>
  new Set((query.get(name) ?? '').split(',').filter(Boolean));

export function xApiRoutes(world: XWorld): RouteEntry<XContext>[] {
  /** What X checks before it makes a post, in the order it answers. */
  function refusal(user: XUser, params: Params): Answer | undefined {
    const text = typeof params.text === 'string' ? params.text : '';
    const media = params.media as { media_ids?: unknown } | undefined;
    const mediaIds = Array.isArray(media?.media_ids) ? media.media_ids.map(String) : [];
    const reply = params.reply as { in_reply_to_tweet_id?: unknown } | undefined;
    const parentId = reply?.in_reply_to_tweet_id;
    if (text === '' && mediaIds.length === 0)
      return invalidRequest('Post text or media is required.');
    const limit = user.subscriptionType === 'None' ? STANDARD_LENGTH : LONG_LENGTH;
    if (twitter.parseTweet(text).weightedLength > limit) return invalidRequest(TOO_LONG);
    if (mediaIds.length > MAX_MEDIA)
      return invalidRequest(`media.media_ids must have at most ${MAX_MEDIA} items.`);
    const items = mediaIds.map((id) => world.media.get(id));
    const usable = items.every(
      (item) =>
        item?.userId === user.id && item.finalized && item.pollsLeft < 0 && item.tweetId === null,
    );
    const alone = items.some((item) => item && item.category !== 'tweet_image');
    if (!usable || (alone && items.length > 1))
      return invalidRequest('Your media IDs are invalid.');
    if (parentId !== undefined && !world.tweets.has(String(parentId))) {
      return forbidden('You attempted to reply to a Tweet that is deleted or not visible to you.');
    }
    if (text !== '' && world.texts.has(`${user.id}\n${text}`)) {
      return forbidden('You are not allowed to create a Tweet with duplicate content.');
    }
    return undefined;
  }

  const createTweet = (ctx: XContext): Answer => {
    const { params } = ctx;
    const user = userWith(world, ctx, 'tweet.write');
    if (!isUser(user)) return user;
    const refused = refusal(user, params);
    if (refused) return refused;
    const mediaIds = ((params.media as { media_ids?: unknown[] } | undefined)?.media_ids ?? []).map(
      String,
    );
    const parentId = (params.reply as { in_reply_to_tweet_id?: unknown } | undefined)
      ?.in_reply_to_tweet_id;
    const tweet: XTweet = {
      id: nextXId(),
      authorId: user.id,
      text: typeof params.text === 'string' ? params.text : '',
      mediaIds,
      inReplyToId: parentId === undefined ? null : String(parentId),
      likes: 0,
      retweets: 0,
      quotes: 0,
      replies: 0,
      impressions: 0,
      createdAt: new Date(),
    };
    world.tweets.set(tweet.id, tweet);
    world.texts.add(`${user.id}\n${tweet.text}`);
    for (const id of mediaIds) {
      const media = world.media.get(id);
      if (media) media.tweetId = tweet.id;
    }
    const parent = tweet.inReplyToId ? world.tweets.get(tweet.inReplyToId) : undefined;
    if (parent) parent.replies++;
    return {
      status: 201,
      body: { data: { id: tweet.id, text: tweet.text, edit_history_tweet_ids: [tweet.id] } },
    };
  };

  /** Posts by id; one asked for by path answers `data` as an object, as X does. */
  const lookup = (ctx: XContext, ids: string[], single = false): Answer => {
    const user = userWith(world, ctx, 'tweet.read');
    if (!isUser(user)) return user;
    if (ids.length === 0 || ids.length > MAX_LOOKUP || !ids.every((id) => /^\d{1,19}$/.test(id))) {
      return invalidRequest(`ids must be 1 to ${MAX_LOOKUP} comma-separated post ids.`);
    }
    const fields = fieldsOf(ctx.query, 'tweet.fields');
    const found = ids.flatMap((id) => {
      const tweet = world.tweets.get(id);
      return tweet ? [world.tweetJson(tweet, fields)] : [];
    });
    const errors = ids
      .filter((id) => !world.tweets.has(id))
      .map((id) => ({
        value: id,
        detail: `Could not find tweet with ids: [${id}].`,
        title: 'Not Found Error',
        resource_type: 'tweet',
        parameter: 'ids',
        resource_id: id,
        type: 'https://api.twitter.com/2/problems/resource-not-found',
      }));
    return {
      status: 200,
      body: {
        ...(found.length > 0 && { data: single ? found[0] : found }),
        ...(errors.length > 0 && { errors }),
      },
    };
  };

  const me = (ctx: XContext): Answer => {
    const user = userWith(world, ctx, 'users.read');
    if (!isUser(user)) return user;
    const fields = fieldsOf(ctx.query, 'user.fields');
    return {
      status: 200,
      body: {
        data: {
          id: user.id,
          name: user.name,
          username: user.username,
          ...(fields.has('profile_image_url') && { profile_image_url: user.profileImageUrl }),
          ...(fields.has('subscription_type') && { subscription_type: user.subscriptionType }),
          ...(fields.has('verified') && { verified: user.subscriptionType !== 'None' }),
        },
      },
    };
  };

  return [
    ['POST', /^\/2\/tweets$/, createTweet],
    [
      'GET',
      /^\/2\/tweets$/,
      (ctx) => lookup(ctx, (ctx.query.get('ids') ?? '').split(',').filter(Boolean)),
    ],
    ['GET', /^\/2\/tweets\/(\d+)$/, (ctx, match) => lookup(ctx, [match[1] ?? ''], true)],
    ['GET', /^\/2\/users\/me$/, me],
  ];
}
