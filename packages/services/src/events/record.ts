import { events, type Db, type EventPayload } from '@chorus/db';
import type { EventType } from '@chorus/validators';
import { newId } from '../ids';

/** A transaction (or the database itself) that the event is written with. */
type Writer = Pick<Db, 'insert'>;

/**
 * Records an event in the outbox (decisions §14). Call it with the transaction of the change
 * that causes the event, so that the change and its event commit, or roll back, together.
 * `object` is the resource exactly as the REST API returns it.
 */
export async function recordEvent(opts: {
  tx: Writer;
  accountId: string;
  type: EventType;
  object: unknown;
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
  return payload;
}
