import type { Db } from '@chorus/db';
import { errorReason } from '@chorus/validators';
import { setTimeout as sleep } from 'node:timers/promises';
import { warnOperator } from '../../shared/worker-log';
import type { Tx } from '../../posts/tx';
import { writeOutcome, type Outcome, type TargetRow } from './claim';

/**
 * Records what the network answered to an attempt (writeOutcome), however the write fails. A
 * target left `publishing` is taken, after its lease, for one whose worker died: sent again on
 * an idempotent network. The network has answered by now, so that must not happen: the write
 * is tried again after a pause (the database may be back), and then, as the least that is
 * true, the target is written `unconfirmed`: never sent again by itself, a person resolves it
 * (docs/publishing.md, States). Only a database refusing even that leaves the target to the
 * sweep, as a dead worker would. Answers the status written, or null (the claim was lost, or
 * nothing could be written).
 */

/** Pauses before the second and third writes. */
const PAUSES_MS = [250, 1000];

const UNRECORDED = {
  published:
    'The network published this post, but Chorus could not record its answer. Check the channel on the network, then resolve the target.',
  other:
    "Chorus could not record the network's answer to this attempt. Check the channel on the network, then resolve the target.",
};

/** The outcome at least this attempt can stand by: `unconfirmed`, in plain words. */
const unconfirmed = (outcome: Outcome): Outcome => ({
  status: 'unconfirmed',
  error: {
    code: 'unconfirmed',
    message: outcome.status === 'published' ? UNRECORDED.published : UNRECORDED.other,
    retryable: false,
  },
});

export async function recordOutcome(
  db: Db,
  claim: TargetRow,
  outcome: Outcome,
  also?: (tx: Tx) => Promise<void>,
): Promise<Outcome['status'] | null> {
  const tries: { outcome: Outcome; also?: (tx: Tx) => Promise<void> }[] = [
    { outcome, also },
    { outcome, also },
    { outcome: unconfirmed(outcome) },
  ];
  for (const [index, attempt] of tries.entries()) {
    if (index > 0) await sleep(PAUSES_MS[index - 1]);
    try {
      return (await writeOutcome(db, claim, attempt.outcome, attempt.also))
        ? attempt.outcome.status
        : null;
    } catch (error) {
      warnOperator('publishing outcome not written', {
        targetId: claim.id,
        status: attempt.outcome.status,
        reason: errorReason(error),
      });
    }
  }
  return null;
}
