import type { Principal } from '@chorus/auth';
import { and, channels, eq, inArray, isNull, media, or, postTargets, sql } from '@chorus/db';
import {
  isLockedTarget,
  LOCKED_TARGET_STATUSES,
  type Issue,
  type TargetInput,
} from '@chorus/validators';
import { AppError } from '../shared/errors';
import { newId } from '../shared/ids';
import type { TargetRow } from './records';
import { targetReviser } from './revise';
import { targetToSend } from './to-send';
import type { Tx } from './tx';

const refuse = (issues: Issue[]) =>
  new AppError('validation_error', issues[0]?.message ?? 'The request is not valid.', { issues });

/**
 * Every channel must be the account's and every medium too: another account's channel is as
 * unknown as one that does not exist (docs/security.md). Paths name the target at fault.
 * Checked before anything reads the channels (`schedule: "next_slot"` their slots), so an
 * unknown channel is refused as such whatever else the write asks.
 */
export async function assertOwnTargets(
  tx: Tx,
  principal: Pick<Principal, 'accountId'>,
  all: TargetInput[],
  /** Indexes of targets the post already holds as they are (a locked one): not checked again. */
  skip: ReadonlySet<number> = new Set(),
) {
  // Kept in place (undefined) so that paths name each target by its index in the request.
  const targets = all.map((target, index) => (skip.has(index) ? undefined : target));
  const channelIds = targets.flatMap((target) => (target ? [target.channelId] : []));
  const mediaIds = [
    ...new Set(
      targets.flatMap((t) => [
        ...(t?.mediaIds ?? []),
        ...(t?.thread ?? []).flatMap((part) => part.mediaIds ?? []),
      ]),
    ),
  ];
  const knownChannels = new Set(
    channelIds.length === 0
      ? []
      : (
          await tx
            .select({ id: channels.id })
            .from(channels)
            .where(
              and(eq(channels.accountId, principal.accountId), inArray(channels.id, channelIds)),
            )
        ).map((row) => row.id),
  );
  const knownMedia = new Set(
    mediaIds.length === 0
      ? []
      : (
          await tx
            .select({ id: media.id })
            .from(media)
            .where(and(eq(media.accountId, principal.accountId), inArray(media.id, mediaIds)))
        ).map((row) => row.id),
  );
  const issues: Issue[] = [];
  targets.forEach((target, index) => {
    if (!target) return;
    const at = `targets[${index}]`;
    if (!knownChannels.has(target.channelId)) {
      issues.push({ path: `${at}.channelId`, message: `Unknown channel: ${target.channelId}.` });
    }
    const unknownMedia = (ids: string[] | null | undefined, path: string) =>
      (ids ?? []).forEach((id, i) => {
        if (!knownMedia.has(id))
          issues.push({ path: `${path}[${i}]`, message: `Unknown media: ${id}.` });
      });
    unknownMedia(target.mediaIds, `${at}.mediaIds`);
    target.thread?.forEach((part, i) => unknownMedia(part.mediaIds, `${at}.thread[${i}].mediaIds`));
  });
  if (issues.length > 0) throw refuse(issues);
}

/** What a target sends, as stored: equal values mean nothing to send has changed. */
const sendable = (t: {
  content: string | null;
  mediaIds: string[] | null;
  firstComment: string | null;
  thread: unknown;
}) => JSON.stringify([t.content, t.mediaIds, t.firstComment, t.thread]);

/** A target's sendable fields as `replaceTargets` stores them (null: the post's own). */
const stored = (target: TargetInput) => ({
  content: target.content ?? null,
  mediaIds: target.mediaIds ?? null,
  firstComment: target.firstComment ?? null,
  // null and left out are one (docs/publishing.md, Targets), stored as left out.
  thread:
    target.thread?.map(({ content, mediaIds }) =>
      mediaIds ? { content, mediaIds } : { content },
    ) ?? null,
});

/**
 * Whether `targets` differ from the post's as it shows them: another channel, order, or
 * anything one of them sends. The same targets sent again (a client that sends the whole post
 * back) are no change.
 */
export async function targetsDiffer(tx: Tx, postId: string, targets: TargetInput[]) {
  const existing = await tx
    .select()
    .from(postTargets)
    .where(eq(postTargets.postId, postId))
    .orderBy(postTargets.position);
  if (existing.length !== targets.length) return true;
  return targets.some((target, index) => {
    const row = existing[index];
    return !row || row.channelId !== target.channelId || sendable(row) !== sendable(stored(target));
  });
}

const lockedWhy = (row: TargetRow, change: 'removed' | 'changed') => {
  const which = `Target ${row.id} (channel ${row.channelId})`;
  const kept =
    change === 'removed'
      ? 'it stays among the targets'
      : 'what it sends (content, mediaIds, thread, firstComment) cannot change';
  return row.status === 'published'
    ? `${which} is published and is never sent again: ${kept}.`
    : `${which} is unconfirmed and may already be on the network: ${kept} until it is resolved (POST /api/content/posts/{id}/targets/{targetId}/resolve).`;
};

/**
 * A new list of targets keeps each locked target of the post, sending what it sent (its place
 * in the list may change), or is refused whole: 409 `target_locked`, `details.lockedTargets`
 * naming each target, its channel and why. Dropping one would lose its `url` and
 * `externalId`, and adding its channel back would make a new, pending target that goes out a
 * second time. Answers the indexes of the list that are locked targets kept as they are.
 */
function assertLockedKept(existing: TargetRow[], targets: TargetInput[]): Set<number> {
  const kept = new Set<number>();
  const refused: Record<string, unknown>[] = [];
  for (const row of existing.filter(isLockedTarget)) {
    const index = targets.findIndex((target) => target.channelId === row.channelId);
    const target = targets[index];
    const change = !target ? 'removed' : sendable(row) !== sendable(stored(target)) && 'changed';
    if (!change) {
      kept.add(index);
      continue;
    }
    refused.push({
      targetId: row.id,
      channelId: row.channelId,
      status: row.status,
      change,
      path: change === 'removed' ? 'targets' : `targets[${index}]`,
      message: lockedWhy(row, change),
    });
  }
  if (refused.length === 0) return kept;
  const messages = refused.map((entry) => entry.message).join(' ');
  throw new AppError(
    'target_locked',
    refused.length === 1 ? messages : `${refused.length} targets are locked. ${messages}`,
    { lockedTargets: refused },
  );
}

/**
 * A new list of targets for a post that has `existing` (none for a new post), checked as
 * replaceTargets takes it: its locked targets kept (assertLockedKept), every other channel and
 * medium the account's (assertOwnTargets). A locked target's channel or media may be gone since
 * it went out: it is the post's, as it was, and checking it again would leave the post's
 * targets unchangeable. Answers the indexes of the list that are locked targets kept.
 */
export async function assertTargetList(
  tx: Tx,
  principal: Pick<Principal, 'accountId'>,
  existing: TargetRow[],
  targets: TargetInput[],
) {
  const locked = assertLockedKept(existing, targets);
  await assertOwnTargets(tx, principal, targets, locked);
  return locked;
}

/**
 * Sets a post's targets to exactly these, in this order: the one place a post's targets are
 * replaced (create, update, and so import and the dashboard). A channel that stays a target
 * keeps its target (id, status, outcome), so an edit never makes a published target new again,
 * and a locked one (published, unconfirmed) must stay, unchanged (assertLockedKept). When what
 * a target sends changes, it is revised (targetReviser): its `revision` moves on, and its
 * `progress` keeps only the live posts of its unchanged first parts. Runs before the post's
 * own content and media change in the same update (targetReviser reads them as they were).
 */
export async function replaceTargets(
  tx: Tx,
  principal: Principal,
  postId: string,
  targets: TargetInput[],
) {
  const existing = await tx.select().from(postTargets).where(eq(postTargets.postId, postId));
  await assertTargetList(tx, principal, existing, targets);
  const byChannel = new Map<string, TargetRow>(existing.map((row) => [row.channelId, row]));
  const revised = targets.filter((target) => {
    const kept = byChannel.get(target.channelId);
    return kept && sendable(kept) !== sendable(stored(target));
  });
  const revise =
    revised.length > 0
      ? await targetReviser(
          tx,
          postId,
          revised.map((target) => target.channelId),
        )
      : undefined;
  // Deleted and inserted again rather than updated: positions are unique per post.
  await tx.delete(postTargets).where(eq(postTargets.postId, postId));
  if (targets.length === 0) return;
  const now = new Date();
  await tx.insert(postTargets).values(
    targets.map((target, position) => {
      const fields = stored(target);
      const kept = byChannel.get(target.channelId);
      const base = {
        postId,
        accountId: principal.accountId,
        channelId: target.channelId,
        position,
        ...fields,
      };
      if (!kept) return { id: newId('tgt'), ...base, createdAt: now, updatedAt: now };
      if (!revise || sendable(kept) === sendable(fields)) return { ...kept, ...base };
      return { ...kept, ...base, ...revise(kept, fields), updatedAt: now };
    }),
  );
}

/**
 * The post's own `content` or `mediaIds` changed (`before`: the values it had, of the fields
 * that changed): the targets that fall back to them (theirs null) would send something else.
 *
 * A locked target (published, unconfirmed) keeps what it sent: the old value becomes its own
 * field, and nothing else of it changes (revision, externalId, progress). Its answer then shows
 * what may be on the network, and an unconfirmed one resolved as not published is retried with
 * that text and the same idempotency keys, which is what makes the retry safe.
 *
 * Any other target that falls back to a changed field is revised (its head's text or media
 * change, see targetReviser):
 * - its `progress` (what earlier attempts achieved at the network: thread parts posted, a
 *   container made) is cleared, since it described the old head: the next attempt sends the
 *   whole new text, and a part of the old one already live stays on the network as it is (a new
 *   thread starts; docs/publishing.md, Targets);
 * - its `revision` moves on, and with it the idempotency keys sent to the networks, so Mastodon
 *   does not answer the new text with the status it made of the old one (sendKey).
 */
export async function followPostEdit(
  tx: Tx,
  postId: string,
  before: { content?: string; mediaIds?: string[] },
) {
  const { content, mediaIds } = before;
  if (content === undefined && mediaIds === undefined) return;
  const ofPost = eq(postTargets.postId, postId);
  const locked = inArray(postTargets.status, [...LOCKED_TARGET_STATUSES]);
  if (content !== undefined) {
    await tx
      .update(postTargets)
      .set({ content })
      .where(and(ofPost, locked, isNull(postTargets.content)));
  }
  if (mediaIds !== undefined) {
    await tx
      .update(postTargets)
      .set({ mediaIds })
      .where(and(ofPost, locked, isNull(postTargets.mediaIds)));
  }
  await tx
    .update(postTargets)
    .set({
      progress: {},
      // The old text's live head is no longer this target's post (see toTarget's failed head).
      externalId: null,
      url: null,
      revision: sql`${postTargets.revision} + 1`,
      updatedAt: new Date(),
    })
    .where(
      and(
        ofPost,
        targetToSend(),
        or(
          content !== undefined ? isNull(postTargets.content) : undefined,
          mediaIds !== undefined ? isNull(postTargets.mediaIds) : undefined,
        ),
      ),
    );
}

/** A post's targets as a client would send them (for checking the post as it stands). */
export const asTargetInputs = (rows: TargetRow[]): TargetInput[] =>
  rows.map((row) => ({
    channelId: row.channelId,
    ...(row.content !== null ? { content: row.content } : {}),
    ...(row.mediaIds !== null ? { mediaIds: row.mediaIds } : {}),
    firstComment: row.firstComment,
    ...(row.thread !== null ? { thread: row.thread } : {}),
  }));
