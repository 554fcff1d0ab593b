import {
  and,
  eq,
  inArray,
  integrationConnections,
  isNull,
  lte,
  or,
  postTargets,
  posts,
  sql,
  type Db,
  type TargetError,
} from '@chorus/db';
import { toConnectedIntegration } from '../../integrations/connections';
import { recordEvent } from '../../events/record';
import { recordActivity } from '../../posts/activity';
import type { Tx } from '../../posts/tx';
import { networkLink } from '../links';
import type { PublishProgress } from '../provider';
import { settlePost } from '../settle';

type ConnectionRow = typeof integrationConnections.$inferSelect;

export type TargetRow = typeof postTargets.$inferSelect;

const clock = sql`clock_timestamp()`;

/** A target is due (the seam with the API side): pending, its post publishing, its time come. */
export const isDue = and(
  eq(postTargets.status, 'pending'),
  or(isNull(postTargets.nextAttemptAt), lte(postTargets.nextAttemptAt, clock)),
  sql`exists (select 1 from ${posts} where ${posts.id} = ${postTargets.postId} and ${posts.status} = 'publishing')`,
);

/**
 * Claims due targets for one attempt each, before any network call: one conditional update, so
 * of any number of workers or duplicate jobs exactly one gets each row. A target that is not
 * due (claimed already, published, waiting for its backoff, its post no longer publishing) is
 * left out of the answer.
 */
export async function claimTargets(db: Db, targetIds: string[]): Promise<TargetRow[]> {
  if (targetIds.length === 0) return [];
  return db
    .update(postTargets)
    .set({
      status: 'publishing',
      attempts: sql`${postTargets.attempts} + 1`,
      firstAttemptAt: sql`coalesce(${postTargets.firstAttemptAt}, ${clock})`,
      nextAttemptAt: null,
      updatedAt: clock,
    })
    .where(and(inArray(postTargets.id, targetIds), isDue))
    .returning();
}

/** Our claim on a target: still `publishing`, by this attempt (not one that took over since). */
const held = (claim: TargetRow) =>
  and(
    eq(postTargets.id, claim.id),
    eq(postTargets.status, 'publishing'),
    eq(postTargets.attempts, claim.attempts),
  );

/** Renews the claim's lease (docs/publishing.md): false once the claim was lost. */
export async function heartbeat(db: Db, claim: TargetRow): Promise<boolean> {
  const rows = await db
    .update(postTargets)
    .set({ updatedAt: clock })
    .where(held(claim))
    .returning({ id: postTargets.id });
  return rows.length > 0;
}

/** Stores a provider's progress; throws when the claim was lost, which stops the attempt. */
export async function saveProgress(db: Db, claim: TargetRow, progress: PublishProgress) {
  const rows = await db
    .update(postTargets)
    .set({ progress, updatedAt: clock })
    .where(held(claim))
    .returning({ id: postTargets.id });
  if (rows.length === 0) throw new Error(`the claim on ${claim.id} was lost`);
}

export type Outcome =
  | { status: 'published'; externalId: string; url: string | null }
  | {
      status: 'failed' | 'unconfirmed';
      error: TargetError;
      /** The target's first post, live before a later part or its comment failed (Provider.head). */
      head?: { externalId: string; url: string | null };
    }
  | { status: 'pending'; nextAttemptAt: Date; error: TargetError };

function changes(outcome: Outcome) {
  switch (outcome.status) {
    case 'published':
      return {
        status: outcome.status,
        externalId: outcome.externalId,
        url: outcome.url,
        publishedAt: clock,
        error: null,
      };
    case 'pending':
      return { status: outcome.status, nextAttemptAt: outcome.nextAttemptAt, error: outcome.error };
    default:
      // A failed target whose first post is live links to it: the post is on the network, and the
      // person deciding to retry or edit should see where (docs/publishing.md, States).
      return {
        status: outcome.status,
        error: outcome.error,
        ...(outcome.head ? { externalId: outcome.head.externalId, url: outcome.head.url } : {}),
      };
  }
}

/**
 * The outcome with the network's links as Chorus keeps them (links.ts): a post's `url` that is
 * not an absolute http(s) URL is null, never stored, served or sent in an event.
 */
function withKeptLinks(claim: TargetRow, outcome: Outcome): Outcome {
  const about = { targetId: claim.id, channelId: claim.channelId };
  if (outcome.status === 'published') {
    return { ...outcome, url: networkLink(outcome.url, about) };
  }
  if (outcome.status !== 'pending' && outcome.head) {
    return { ...outcome, head: { ...outcome.head, url: networkLink(outcome.head.url, about) } };
  }
  return outcome;
}

/**
 * Writes an attempt's outcome and settles the post, in one transaction. Only while the claim
 * holds: an attempt whose target was taken over (its lease ran out) changes nothing.
 */
export async function writeOutcome(
  db: Db,
  claim: TargetRow,
  given: Outcome,
  also?: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  const outcome = withKeptLinks(claim, given);
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(postTargets)
      .set({ ...changes(outcome), updatedAt: clock })
      .where(held(claim))
      .returning({ id: postTargets.id });
    if (rows.length === 0) return false;
    await also?.(tx);
    await settlePost(tx, claim.postId);
    // After settlePost has locked the post: the entry's reference to the post takes a share
    // lock on it, which, taken first, would deadlock with the outcome of a sibling target.
    if (outcome.status !== 'pending') {
      await recordActivity(tx, {
        accountId: claim.accountId,
        postId: claim.postId,
        actorId: null,
        action: outcome.status,
        targetId: claim.id,
        channelId: claim.channelId,
        details: outcome.status === 'published' ? { url: outcome.url } : { error: outcome.error },
      });
    }
    return true;
  });
}

/**
 * Marks a connection `needs_reconnect` (the platform refused the grant) with its event, once:
 * a connection already marked is left alone, and so is one connected again since it was read
 * (its `connectedAt` moved on), whose new grant the refusal says nothing about.
 */
export async function markNeedsReconnect(
  tx: Tx,
  connection: Pick<ConnectionRow, 'accountId' | 'integrationId' | 'connectedAt'>,
) {
  const { accountId, integrationId } = connection;
  const [row] = await tx
    .update(integrationConnections)
    .set({ status: 'needs_reconnect' })
    .where(
      and(
        eq(integrationConnections.accountId, accountId),
        eq(integrationConnections.integrationId, integrationId),
        eq(integrationConnections.status, 'connected'),
        eq(integrationConnections.connectedAt, connection.connectedAt),
      ),
    )
    .returning();
  if (!row) return;
  await recordEvent({
    tx,
    accountId,
    type: 'integration.needs_reconnect',
    object: { ...toConnectedIntegration(row), status: 'needs_reconnect' },
  });
}
