import { NETWORK_LIMITS } from '@chorus/validators';
import { z } from 'zod';
import { NetworkError } from '../../http';
import type { PostFigures, Provider } from '../../provider';
import { singlePost } from '../common/single-post';
import { linkedinApi, postUrl, restliList } from './api';
import { discoverLinkedInChannels } from './channels';
import { classifyLinkedIn } from './classify';
import { kindOf } from './media';
import { publishLinkedIn } from './publish';
import { refreshLinkedIn } from './refresh';

/**
 * LinkedIn, as a member (`urn:li:person:…`) or an organisation they post for
 * (`urn:li:organization:…`), on the versioned REST API. Not idempotent: LinkedIn takes no
 * idempotency key, so an unknown outcome of a post becomes `unconfirmed`.
 */

/** The Comments API's limit on `message.text`. */
const MAX_COMMENT = 1250;

const ZSocialActions = z.object({
  likesSummary: z.object({ totalLikes: z.number() }).optional(),
  commentsSummary: z.object({ aggregatedTotalComments: z.number() }).optional(),
});
const ZShareStatistics = z.object({
  elements: z.array(
    z.object({
      share: z.string().optional(),
      ugcPost: z.string().optional(),
      totalShareStatistics: z.object({
        impressionCount: z.number(),
        clickCount: z.number(),
        likeCount: z.number(),
        commentCount: z.number(),
        shareCount: z.number(),
      }),
    }),
  ),
});

export const linkedin: Provider = {
  network: 'linkedin',
  name: 'LinkedIn',
  limits: NETWORK_LIMITS.linkedin,
  idempotent: false,
  discoverChannels: discoverLinkedInChannels,

  /** A document goes alone; a comment is shorter than a post (1,250 characters). */
  validate({ parts, firstComment }) {
    const media = parts[0]?.media ?? [];
    const issues = [];
    if (media.length > 1 && media.some((item) => kindOf(item) === 'document')) {
      issues.push({
        path: 'mediaIds',
        message: 'On LinkedIn a document must be the only attachment.',
      });
    }
    if (firstComment && [...firstComment].length > MAX_COMMENT) {
      issues.push({
        path: 'firstComment',
        message: `A LinkedIn comment takes at most ${MAX_COMMENT} characters.`,
      });
    }
    return issues;
  },

  publish: publishLinkedIn,
  // A post's link is made from its URN.
  ...singlePost('post', postUrl),
  refresh: refreshLinkedIn,
  classify: classifyLinkedIn,

  /**
   * An organisation's posts: lifetime share statistics (impressions, clicks, likes, comments,
   * shares) in one call. A member's: likes and comments of each post from `socialActions`,
   * which LinkedIn gives only to apps with the restricted r_member_social.
   */
  async metrics(externalIds, channel, context) {
    const api = linkedinApi(context, channel.credentials.accessToken);
    const figures = new Map<string, PostFigures>();
    if (externalIds.length === 0) return figures;
    if (channel.externalId.startsWith('urn:li:organization:')) {
      const shares = externalIds.filter((urn) => urn.startsWith('urn:li:share:'));
      const ugcPosts = externalIds.filter((urn) => urn.startsWith('urn:li:ugcPost:'));
      const query = new URLSearchParams({
        q: 'organizationalEntity',
        organizationalEntity: channel.externalId,
      });
      const lists = [
        shares.length ? `&shares=${restliList(shares)}` : '',
        ugcPosts.length ? `&ugcPosts=${restliList(ugcPosts)}` : '',
      ];
      const { elements } = ZShareStatistics.parse(
        await api.get(
          `/rest/organizationalEntityShareStatistics?${query.toString()}${lists.join('')}`,
        ),
      );
      for (const { share, ugcPost, totalShareStatistics: total } of elements) {
        figures.set(share ?? ugcPost ?? '', {
          impression: total.impressionCount,
          click: total.clickCount,
          like: total.likeCount,
          comment: total.commentCount,
          share: total.shareCount,
        });
      }
      return figures;
    }
    for (const urn of externalIds) {
      const answer = await api
        .get(`/rest/socialActions/${encodeURIComponent(urn)}`)
        .catch((error: unknown) => {
          // A post deleted on LinkedIn is left out.
          if (error instanceof NetworkError && error.details.status === 404) return undefined;
          throw error;
        });
      if (answer === undefined) continue;
      const summary = ZSocialActions.parse(answer);
      figures.set(urn, {
        like: summary.likesSummary?.totalLikes ?? 0,
        comment: summary.commentsSummary?.aggregatedTotalComments ?? 0,
      });
    }
    return figures;
  },
};
