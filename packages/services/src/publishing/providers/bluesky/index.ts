import { NETWORK_LIMITS } from '@chorus/validators';
import type { DiscoveredChannel, PostFigures, ProviderContext, Provider } from '../../provider';
import { batches } from '../common/json';
import { classifyBluesky } from './classify';
import { blueskyHead, blueskyKeep, publishPost } from './post';
import { refreshSession, session, type Session } from './session';
import { query } from './xrpc';

/**
 * Bluesky, on the account's PDS (`context.apiUrl`: its `serviceUrl`, https://bsky.social by
 * default). Connects with a handle and an app password; idempotent through record keys
 * derived from the target (record-key.ts).
 */

/** app.bsky.feed.post's `text` also has a maxLength of 3,000, in UTF-8 bytes. */
const MAX_TEXT_BYTES = 3000;
/** app.bsky.feed.getPosts takes at most 25 URIs. */
const POSTS_PER_QUERY = 25;

interface ProfileView {
  displayName?: string;
  avatar?: string;
}

/**
 * The account's name and avatar: from the AppView behind the PDS (app.bsky.actor.getProfile,
 * proxied), or, where the PDS has none, from the profile record in the repo itself.
 */
async function profileOf(s: Session, context: ProviderContext): Promise<ProfileView> {
  try {
    const auth = { token: s.accessJwt };
    return await query<ProfileView>(context, 'app.bsky.actor.getProfile', { actor: s.did }, auth);
  } catch {
    const record = await query<{
      value: { displayName?: string; avatar?: { ref?: { $link?: string } } };
    }>(context, 'com.atproto.repo.getRecord', {
      repo: s.did,
      collection: 'app.bsky.actor.profile',
      rkey: 'self',
    }).catch(() => undefined);
    const cid = record?.value.avatar?.ref?.$link;
    const blob = new URL(`${context.apiUrl.replace(/\/+$/, '')}/xrpc/com.atproto.sync.getBlob`);
    blob.search = new URLSearchParams({ did: s.did, cid: cid ?? '' }).toString();
    return { displayName: record?.value.displayName, ...(cid ? { avatar: blob.toString() } : {}) };
  }
}

interface PostView {
  uri: string;
  likeCount?: number;
  repostCount?: number;
  replyCount?: number;
  quoteCount?: number;
}

export const bluesky: Provider = {
  network: 'bluesky',
  name: 'Bluesky',
  limits: NETWORK_LIMITS.bluesky,
  idempotent: true,

  async discoverChannels(credentials, context): Promise<DiscoveredChannel[]> {
    const s = await session(credentials, context);
    const handle = s.credentials.extra?.handle ?? s.did;
    const profile = await profileOf(s, context);
    return [
      {
        externalId: s.did,
        name: profile.displayName?.trim() || handle,
        handle: `@${handle}`,
        avatarUrl: profile.avatar ?? null,
        kind: 'account',
        credentials: s.credentials,
      },
    ];
  },

  validate({ parts, firstComment }) {
    const texts = parts.map((part, index) => ({
      text: part.text,
      path: index === 0 ? 'content' : `thread[${index - 1}].content`,
    }));
    if (firstComment) texts.push({ text: firstComment, path: 'firstComment' });
    const bytes = new TextEncoder();
    return texts
      .filter(({ text }) => bytes.encode(text).length > MAX_TEXT_BYTES)
      .map(({ path }) => ({
        path,
        message: `Bluesky takes at most ${MAX_TEXT_BYTES} bytes of text in one post.`,
      }));
  },

  publish: publishPost,
  refresh: refreshSession,
  head: blueskyHead,
  keepParts: blueskyKeep,
  classify: classifyBluesky,

  /**
   * Likes, reposts and quotes (as shares), and replies, from the AppView the PDS proxies
   * app.bsky.* to (https://api.bsky.app behind bsky.social), as the Bluesky app reads them.
   */
  async metrics(externalIds, channel, context) {
    const s = await session(channel.credentials, context);
    const figures = new Map<string, PostFigures>();
    for (const uris of batches(externalIds, POSTS_PER_QUERY)) {
      const { posts } = await query<{ posts: PostView[] }>(
        context,
        'app.bsky.feed.getPosts',
        { uris },
        { token: s.accessJwt },
      );
      for (const post of posts) {
        figures.set(post.uri, {
          like: post.likeCount ?? 0,
          share: (post.repostCount ?? 0) + (post.quoteCount ?? 0),
          comment: post.replyCount ?? 0,
        });
      }
    }
    return figures;
  },
};
