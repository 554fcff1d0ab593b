import { events, type Db, type EventPayload } from '@chorus/db';
import type { EventType } from '@chorus/validators';
import { newId } from '../shared/ids';
import { fanOut } from './fan-out';

/** A transaction (or the database itself) that the event is written with. */
type Writer = Pick<Db, 'insert' | 'select'>;

/**
 * Records an event in the outbox (docs/webhooks.md), with a delivery for every active webhook of
 * the account subscribed to its type. Call it with the transaction of the change that causes
 * the event, so that the change, its event and its deliveries commit, or roll back, together.
 * `object` is the resource exactly as the REST API returns it. `onlyTo` limits the deliveries
 * to one webhook (its test event).
 */
export async function recordEvent(opts: {
  tx: Writer;
  accountId: string;
  type: EventType;
  object: unknown;
  onlyTo?: string;
}): Promise<EventPayload> {
  const { tx, accountId, type, object } = opts;
  const now = new Date();
  const payload: EventPayload = {
    id: newId('evt'),
    type,
    timestamp: now.toISOString(),
    data: { object },
  };
  await tx.insert(events).values({ id: payload.id, accountId, type, payload, createdAt: now });
  await fanOut({ tx, accountId, eventId: payload.id, type, now, onlyTo: opts.onlyTo });
  return payload;
}
