import { randomBytes } from 'node:crypto';
import type { Answer } from './faults';

/** What an X stand-in holds: users, OAuth 2.0 grants, media uploads and the posts it published. */

export interface XUser {
  id: string;
  name: string;
  username: string;
  profileImageUrl: string;
  /** X's `subscription_type`: `None`, or a tier that may post long texts. */
  subscriptionType: 'None' | 'Basic' | 'Premium' | 'PremiumPlus';
}

export interface XGrant {
  userId: string;
  scopes: string[];
  clientId: string;
  expiresAt: number;
  revoked: boolean;
}

export interface XMedia {
  id: string;
  userId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  /** Appended segments by index, until FINALIZE joins them. */
  segments: Map<number, Buffer>;
  finalized: boolean;
  size: number;
  sha256: string | null;
  /** STATUS answers `in_progress` this many more times after FINALIZE. */
  pollsLeft: number;
  altText: string | null;
  tweetId: string | null;
}

export interface XTweet {
  id: string;
  authorId: string;
  text: string;
  mediaIds: string[];
  inReplyToId: string | null;
  likes: number;
  retweets: number;
  quotes: number;
  replies: number;
  impressions: number;
  createdAt: Date;
}

let sequence = 1_900_000_000_000_000_000n;
/** X's ids are snowflakes, always handled as strings. */
export const nextXId = () => String(++sequence);
export const xSecret = () => randomBytes(24).toString('base64url');

/** X's errors follow RFC 7807 problem details. */
export const problem = (
  status: number,
  title: string,
  detail: string,
  type = 'about:blank',
): Answer => ({
  status,
  body: { title, detail, type, status },
});

/** X's answer to a request whose parameters it refuses. */
export const invalidRequest = (message: string): Answer => ({
  status: 400,
  body: {
    errors: [{ parameters: {}, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.twitter.com/2/problems/invalid-request',
  },
});

export const unauthorized = () => problem(401, 'Unauthorized', 'Unauthorized');

/** Media keys start with the kind of media: 3 image, 7 video, 16 animated GIF. */
export const mediaKey = (media: XMedia) =>
  `${media.category === 'tweet_gif' ? 16 : media.mediaType.startsWith('video/') ? 7 : 3}_${media.id}`;

export class XWorld {
  users = new Map<string, XUser>();
  grants = new Map<string, XGrant>();
  /** Refresh tokens: each works once (X rotates them at every refresh). */
  refreshTokens = new Map<string, Omit<XGrant, 'expiresAt'>>();
  media = new Map<string, XMedia>();
  tweets = new Map<string, XTweet>();
  /** `userId\ntext` of every post: X refuses the same text twice from one account. */
  texts = new Set<string>();

  constructor(readonly baseUrl: string) {}

  addUser(opts: Partial<Omit<XUser, 'id'>> = {}): XUser {
    const id = nextXId();
    const username = opts.username ?? `user${this.users.size + 1}`;
    const user: XUser = {
      id,
      username,
      name: opts.name ?? username,
      profileImageUrl: opts.profileImageUrl ?? `${this.baseUrl}/profile_images/${id}_normal.jpg`,
      subscriptionType: opts.subscriptionType ?? 'None',
    };
    this.users.set(id, user);
    return user;
  }

  /** An access token (two hours, as X's), with a refresh token when `offline.access` is granted. */
  issue(userId: string, scopes: string[], clientId: string) {
    const accessToken = xSecret();
    const refreshToken = scopes.includes('offline.access') ? xSecret() : undefined;
    this.grants.set(accessToken, {
      userId,
      scopes,
      clientId,
      expiresAt: Date.now() + 7_200_000,
      revoked: false,
    });
    if (refreshToken)
      this.refreshTokens.set(refreshToken, { userId, scopes, clientId, revoked: false });
    return {
      token_type: 'bearer',
      expires_in: 7200,
      access_token: accessToken,
      scope: scopes.join(' '),
      ...(refreshToken && { refresh_token: refreshToken }),
    };
  }

  /** A post as `GET /2/tweets` answers it, with the fields asked for. */
  tweetJson(tweet: XTweet, fields: Set<string>) {
    return {
      id: tweet.id,
      text: tweet.text,
      edit_history_tweet_ids: [tweet.id],
      ...(fields.has('author_id') && { author_id: tweet.authorId }),
      ...(fields.has('created_at') && { created_at: tweet.createdAt.toISOString() }),
      ...(fields.has('public_metrics') && {
        public_metrics: {
          retweet_count: tweet.retweets,
          reply_count: tweet.replies,
          like_count: tweet.likes,
          quote_count: tweet.quotes,
          bookmark_count: 0,
          impression_count: tweet.impressions,
        },
      }),
      ...(fields.has('attachments') &&
        tweet.mediaIds.length > 0 && {
          attachments: {
            media_keys: tweet.mediaIds.flatMap((id) => {
              const media = this.media.get(id);
              return media ? [mediaKey(media)] : [];
            }),
          },
        }),
    };
  }
}
