import { and, asc, channels, eq, gt, inArray, lt, postTargets, sql, type Db } from '@chorus/db';
import type { Network } from '@chorus/validators';
import { recordActivity } from '../../posts/activity';
import { PROVIDERS } from '../providers';
import { settlePost } from '../settle';
import { isDue } from './claim';
import { networkOf, publishingSettings, type PublishingSettings } from './settings';

const clock = sql`clock_timestamp()`;

/**
 * Ids of targets due now (what the dispatcher queues a job for), a page at a time in id order:
 * `after` is the last id of the page before.
 */
export async function dueTargetIds(
  db: Db,
  page: { limit?: number; after?: string } = {},
): Promise<string[]> {
  const rows = await db
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(page.after ? and(isDue, gt(postTargets.id, page.after)) : isDue)
    .orderBy(asc(postTargets.id))
    .limit(page.limit ?? 1000);
  return rows.map((row) => row.id);
}

/**
 * The network of each target, by its channel: null where the channel is gone or publishes
 * nowhere (the attempt then fails the target). The queue a target's job goes to.
 */
export async function targetNetworks(db: Db, ids: string[]): Promise<Map<string, Network | null>> {
  const rows = await db
    .select({ id: postTargets.id, integrationId: channels.integrationId })
    .from(postTargets)
    .leftJoin(
      channels,
      and(eq(channels.id, postTargets.channelId), eq(channels.accountId, postTargets.accountId)),
    )
    .where(inArray(postTargets.id, ids));
  const networks = new Map<string, Network | null>();
  for (const row of rows)
    networks.set(row.id, row.integrationId ? networkOf(row.integrationId) : null);
  return networks;
}

/**
 * Targets left `publishing` past their lease: their worker died between the claim and the
 * outcome, perhaps after the request left. Where the provider is idempotent (a repeat lands on
 * the same post) they are due again, within the attempt limits; elsewhere they become
 * `unconfirmed`, never re-sent by themselves (docs/publishing.md). Their posts are settled.
 * Returns how many it recovered.
 */
export async function recoverAbandoned(
  db: Db,
  settings: PublishingSettings = publishingSettings(),
): Promise<number> {
  return db.transaction(async (tx) => {
    const stale = await tx
      .select({
        id: postTargets.id,
        postId: postTargets.postId,
        accountId: postTargets.accountId,
        channelId: postTargets.channelId,
        attempts: postTargets.attempts,
        firstAttemptAt: postTargets.firstAttemptAt,
        integrationId: channels.integrationId,
      })
      .from(postTargets)
      .leftJoin(
        channels,
        and(eq(channels.id, postTargets.channelId), eq(channels.accountId, postTargets.accountId)),
      )
      .where(
        and(
          eq(postTargets.status, 'publishing'),
          lt(
            postTargets.updatedAt,
            sql`${clock} - make_interval(secs => ${settings.leaseMs / 1000})`,
          ),
        ),
      )
      .limit(500)
      .for('update', { of: postTargets, skipLocked: true });
    if (stale.length === 0) return 0;
    const now = Date.now();
    const again: string[] = [];
    const unconfirmed: string[] = [];
    const exhausted: string[] = [];
    for (const target of stale) {
      const network = target.integrationId ? networkOf(target.integrationId) : null;
      const idempotent = network ? (PROVIDERS[network]?.idempotent ?? false) : false;
      const withinLimits =
        target.attempts < settings.maxAttempts &&
        now < (target.firstAttemptAt?.getTime() ?? now) + settings.windowMs;
      if (!idempotent) unconfirmed.push(target.id);
      else if (withinLimits) again.push(target.id);
      else exhausted.push(target.id);
    }
    const message = 'The worker stopped while sending this post.';
    if (again.length > 0) {
      await tx
        .update(postTargets)
        .set({
          status: 'pending',
          nextAttemptAt: null,
          error: { code: 'unknown_outcome', message, retryable: true },
          updatedAt: clock,
        })
        .where(inArray(postTargets.id, again));
    }
    if (unconfirmed.length > 0) {
      await tx
        .update(postTargets)
        .set({
          status: 'unconfirmed',
          error: {
            code: 'unconfirmed',
            message: `${message} The network may have published it: check the channel, then resolve the target.`,
            // Retry leaves an unconfirmed target alone: resolving it is the way on.
            retryable: false,
          },
          updatedAt: clock,
        })
        .where(inArray(postTargets.id, unconfirmed));
    }
    if (exhausted.length > 0) {
      await tx
        .update(postTargets)
        .set({
          status: 'failed',
          error: { code: 'unknown_outcome', message, retryable: true },
          updatedAt: clock,
        })
        .where(inArray(postTargets.id, exhausted));
    }
    const ended = (action: 'unconfirmed' | 'failed', ids: string[]) =>
      stale
        .filter((target) => ids.includes(target.id))
        .map((target) => ({
          accountId: target.accountId,
          postId: target.postId,
          actorId: null,
          action,
          targetId: target.id,
          channelId: target.channelId,
          details: { error: { code: 'unknown_outcome', message } },
        }));
    for (const postId of new Set(stale.map((target) => target.postId))) {
      await settlePost(tx, postId);
    }
    // Once their posts are locked (settlePost), as writeOutcome does: see there.
    await recordActivity(tx, ...ended('unconfirmed', unconfirmed), ...ended('failed', exhausted));
    return stale.length;
  });
}
