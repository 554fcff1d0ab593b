import { and, arrayOverlaps, eq, webhookDeliveries, webhooks, type Db } from '@chorus/db';
import type { EventType } from '@chorus/validators';
import { newId } from '../shared/ids';

/**
 * Who hears of an event, decided where it is recorded (so events depend on no webhook code,
 * and the webhooks' side reads and delivers what is written here): one pending delivery, due now, per active webhook of the account subscribed to the type (or
 * to `*`), in the transaction that records the event: the outbox row and its deliveries
 * commit together.
 */
export async function fanOut(opts: {
  tx: Pick<Db, 'insert' | 'select'>;
  accountId: string;
  eventId: string;
  type: EventType;
  now: Date;
  onlyTo?: string;
}) {
  const { tx, accountId, eventId, type, now, onlyTo } = opts;
  const targets = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.accountId, accountId),
        onlyTo
          ? eq(webhooks.id, onlyTo)
          : and(eq(webhooks.active, true), arrayOverlaps(webhooks.events, [type, '*'])),
      ),
    );
  if (targets.length === 0) return;
  await tx.insert(webhookDeliveries).values(
    targets.map((target) => ({
      id: newId('del'),
      accountId,
      webhookId: target.id,
      eventId,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
}
