import type { Principal } from '@chorus/auth';
import { and, channels, eq, inArray, media } from '@chorus/db';
import {
  targetIssues,
  type Issue,
  type MediaFacts,
  type Network,
  type TargetInput,
} from '@chorus/validators';
import { AppError } from '../shared/errors';
import type { Reader } from '../posts/records';
import { channelLimits } from './channels';
import { PROVIDERS } from './providers';

/** What a post would send: its own fields and its targets (a create body, or a post's state). */
export interface PublishingDraft {
  content: string;
  mediaIds: string[];
  targets: TargetInput[];
}

type MediaRow = Pick<
  typeof media.$inferSelect,
  'id' | 'mimeType' | 'size' | 'width' | 'height' | 'altText'
>;

const mediaIdsIn = (draft: PublishingDraft) => [
  ...new Set([
    ...draft.mediaIds,
    ...draft.targets.flatMap((t) => [
      ...(t.mediaIds ?? []),
      ...(t.thread ?? []).flatMap((part) => part.mediaIds ?? []),
    ]),
  ]),
];

/**
 * Everything the networks would refuse in this post's targets, each with its path
 * (`targets[1].content`, `targets[0].thread[2].mediaIds[0]`): a channel or a medium the account
 * does not have, then each network's limits (`targetIssues`, the table) and its own rules
 * (`provider.validate`). The one place a post is checked before it goes out (docs/publishing.md):
 * `POST /api/content/posts/validate`, scheduling and publishing all call it.
 */
export async function publishingIssues(
  db: Reader,
  principal: Principal,
  draft: PublishingDraft,
  /** The indexes of the targets to check (a retry sends the failed ones only); default all. */
  sending?: ReadonlySet<number>,
): Promise<Issue[]> {
  if (draft.targets.length === 0) return [];
  const channelIds = draft.targets.map((target) => target.channelId);
  const found = await db
    .select()
    .from(channels)
    .where(and(eq(channels.accountId, principal.accountId), inArray(channels.id, channelIds)));
  const channelById = new Map(found.map((row) => [row.id, row]));
  const ids = mediaIdsIn(draft);
  const mediaRows: MediaRow[] =
    ids.length === 0
      ? []
      : await db
          .select({
            id: media.id,
            mimeType: media.mimeType,
            size: media.size,
            width: media.width,
            height: media.height,
            altText: media.altText,
          })
          .from(media)
          .where(and(eq(media.accountId, principal.accountId), inArray(media.id, ids)));
  const mediaById = new Map(mediaRows.map((row) => [row.id, row]));

  const issues: Issue[] = [];
  draft.targets.forEach((target, index) => {
    if (sending && !sending.has(index)) return;
    const path = `targets[${index}]`;
    const channel = channelById.get(target.channelId);
    if (!channel) {
      issues.push({ path: `${path}.channelId`, message: `Unknown channel: ${target.channelId}.` });
      return;
    }
    const network = channel.integrationId as Network;
    const provider = PROVIDERS[network];
    // Unknown media are reported once, where they are named; the rest is checked without them.
    const resolve = (list: string[], at: string) =>
      list.flatMap((id, i) => {
        const row = mediaById.get(id);
        if (!row) issues.push({ path: `${at}[${i}]`, message: `Unknown media: ${id}.` });
        return row ? [row] : [];
      });
    const first = {
      text: target.content ?? draft.content,
      media: resolve(
        target.mediaIds ?? draft.mediaIds,
        target.mediaIds ? `${path}.mediaIds` : 'mediaIds',
      ),
    };
    const thread = (target.thread ?? []).map((part, i) => ({
      text: part.content,
      media: resolve(part.mediaIds ?? [], `${path}.thread[${i}].mediaIds`),
    }));
    const parts = [first, ...thread];
    const firstComment = target.firstComment ?? null;
    const facts = (list: MediaRow[]): MediaFacts[] =>
      list.map(({ id, mimeType, size }) => ({ id, mimeType, size }));
    issues.push(
      ...targetIssues({
        limits: channelLimits(network, channel.limits),
        name: provider.name,
        target: {
          parts: parts.map((part) => ({ content: part.text, media: facts(part.media) })),
          firstComment,
        },
        path,
      }),
      ...provider
        .validate({ parts, firstComment })
        .map((issue) => ({ path: `${path}.${issue.path}`, message: issue.message })),
    );
  });
  // A post-level medium that is missing is named once, not once per target.
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\n${issue.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** Scheduling or publishing a post with an invalid target: 400 with every issue. */
export async function assertPublishable(
  db: Reader,
  principal: Principal,
  draft: PublishingDraft,
  sending?: ReadonlySet<number>,
) {
  const issues = await publishingIssues(db, principal, draft, sending);
  if (issues.length === 0) return;
  throw new AppError(
    'validation_error',
    `The post cannot be published as it is: ${issues.length === 1 ? 'one issue' : `${issues.length} issues`} (see details.issues).`,
    { issues },
  );
}
