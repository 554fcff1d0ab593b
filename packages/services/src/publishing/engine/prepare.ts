import {
  and,
  asc,
  channels,
  eq,
  inArray,
  integrationConnections,
  media,
  postMedia,
  posts,
  type Db,
  type TargetError,
} from '@chorus/db';
import type { Network } from '@chorus/validators';
import { publishingCredentials, type PublishingCredentials } from '../credentials';
import { partSpecs } from '../parts';
import type { Provider, PublishPart } from '../provider';
import { PROVIDERS } from '../providers';
import type { Outcome, TargetRow } from './claim';
import { publishMedia, type MediaRow, type MediaSource } from './media';
import { networkOf } from './settings';

type ChannelRow = typeof channels.$inferSelect;
type ConnectionRow = typeof integrationConnections.$inferSelect;

/** Everything one claimed target's attempt needs, read before any network call. */
export interface Ready extends PublishingCredentials {
  channel: ChannelRow;
  connection: ConnectionRow;
  network: Network;
  provider: Provider;
  parts: PublishPart[];
}

/** A claim with what its attempt needs, or the outcome that ends it without a network call. */
export type Prepared = { claim: TargetRow } & ({ ready: Ready } | { outcome: Outcome });

const fail = (code: string, message: string, retryable: boolean): Outcome => ({
  status: 'failed',
  error: { code, message, retryable } satisfies TargetError,
});

/**
 * Reads what a batch of claims needs in four queries whatever its size (channels with their
 * connections, the posts' text, the posts' media order, the media rows), so a worker's cost
 * per target is the network call and its outcome, not a round of look-ups. Every row is
 * matched on the claim's account: a channel or file of another account is as absent as a
 * deleted one.
 */
export async function prepareAttempts(
  db: Db,
  claims: TargetRow[],
  source: MediaSource,
): Promise<Prepared[]> {
  if (claims.length === 0) return [];
  const unique = (values: string[]) => [...new Set(values)];
  const postIds = unique(claims.map((claim) => claim.postId));
  const [destinations, texts, links] = await Promise.all([
    db
      .select({ channel: channels, connection: integrationConnections })
      .from(channels)
      .leftJoin(
        integrationConnections,
        and(
          eq(integrationConnections.accountId, channels.accountId),
          eq(integrationConnections.integrationId, channels.integrationId),
        ),
      )
      .where(inArray(channels.id, unique(claims.map((claim) => claim.channelId)))),
    db
      .select({ id: posts.id, content: posts.content })
      .from(posts)
      .where(inArray(posts.id, postIds)),
    claims.some((claim) => !claim.mediaIds)
      ? db
          .select({ postId: postMedia.postId, mediaId: postMedia.mediaId })
          .from(postMedia)
          .where(inArray(postMedia.postId, postIds))
          .orderBy(asc(postMedia.postId), asc(postMedia.position))
      : [],
  ]);
  const textOf = new Map(texts.map((row) => [row.id, row.content]));
  const mediaOfPost = new Map<string, string[]>();
  for (const link of links) {
    mediaOfPost.set(link.postId, [...(mediaOfPost.get(link.postId) ?? []), link.mediaId]);
  }
  const specsOf = (claim: TargetRow) =>
    partSpecs(claim, {
      content: textOf.get(claim.postId),
      mediaIds: mediaOfPost.get(claim.postId),
    });
  const mediaIds = unique(claims.flatMap((claim) => specsOf(claim).flatMap((s) => s.mediaIds)));
  const files =
    mediaIds.length > 0 ? await db.select().from(media).where(inArray(media.id, mediaIds)) : [];
  const fileOf = new Map(files.map((row) => [row.id, row]));

  return claims.map((claim): Prepared => {
    const found = destinations.find(
      (row) => row.channel.id === claim.channelId && row.channel.accountId === claim.accountId,
    );
    const decided = destination(found?.channel, found?.connection ?? undefined);
    if ('status' in decided) return { claim, outcome: decided };
    const own = (id: string): MediaRow | undefined => {
      const row = fileOf.get(id);
      return row?.accountId === claim.accountId ? row : undefined;
    };
    const specs = specsOf(claim);
    const missing = specs.flatMap((spec) => spec.mediaIds).find((id) => !own(id));
    if (missing) {
      return {
        claim,
        outcome: fail('media_unavailable', `The media ${missing} no longer exists.`, false),
      };
    }
    const parts = specs.map((spec) => ({
      text: spec.text,
      media: spec.mediaIds.map((id) => publishMedia(own(id) as MediaRow, source)),
    }));
    return { claim, ready: { ...decided, parts } };
  });
}

/** The target's channel, connection, provider and credentials, or why it cannot be sent. */
function destination(
  channel: ChannelRow | undefined,
  connection: ConnectionRow | undefined,
): Omit<Ready, 'parts'> | Outcome {
  const network = channel ? networkOf(channel.integrationId) : null;
  const provider = network ? PROVIDERS[network] : undefined;
  if (!channel || !connection || !network || !provider) {
    return fail('channel_unavailable', 'The channel is no longer connected.', false);
  }
  if (connection.status === 'needs_reconnect') {
    return fail(
      'reconnect_required',
      'The network refused our access: reconnect the integration, then retry.',
      true,
    );
  }
  const found = publishingCredentials(channel, connection);
  if (!found) {
    return fail('reconnect_required', 'The stored credentials cannot be read: reconnect.', true);
  }
  return { channel, connection, network, provider, ...found };
}
