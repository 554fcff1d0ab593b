import type { Principal } from '@chorus/auth';
import {
  and,
  asc,
  count,
  eq,
  events,
  inArray,
  webhookAttempts,
  webhookDeliveries,
  type Db,
} from '@chorus/db';
import type { WebhookDelivery } from '@chorus/validators';
import { notFound } from '../shared/errors';
import { recordEvent } from '../events/record';
import { readPage, type PageRequest } from '../shared/pagination';
import { findWebhookRow } from './endpoints';
import { toWebhook } from './records';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

const toDelivery = (
  row: DeliveryRow,
  eventType: string,
  attempts: AttemptRow[],
): WebhookDelivery => ({
  id: row.id,
  eventId: row.eventId,
  eventType,
  status: row.status,
  nextAttemptAt: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  attempts: attempts.map((a) => ({
    attempt: a.attempt,
    at: a.startedAt.toISOString(),
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    responseExcerpt: a.responseExcerpt,
    error: a.error,
  })),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Deliveries with their event types and attempts, in the order given. */
async function withAttempts(db: Db, rows: { delivery: DeliveryRow; eventType: string }[]) {
  const ids = rows.map((row) => row.delivery.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.deliveryId, ids))
          .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.attempt));
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const a of attempts)
    byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return rows.map(({ delivery, eventType }) =>
    toDelivery(delivery, eventType, byDelivery.get(delivery.id) ?? []),
  );
}

/** Deliveries with the type of their event, for a `where` to narrow. */
const deliveriesWithType = (db: Db) =>
  db
    .select({ delivery: webhookDeliveries, eventType: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId));

/** The delivery log of an endpoint of the account, newest first. */
export async function listDeliveries(opts: {
  db: Db;
  principal: Principal;
  webhookId: string;
  page: PageRequest;
}) {
  const { db, principal, webhookId, page } = opts;
  await findWebhookRow(db, principal, webhookId);
  const where = eq(webhookDeliveries.webhookId, webhookId);
  return readPage({
    db,
    request: page,
    order: {
      table: webhookDeliveries,
      id: webhookDeliveries.id,
      by: webhookDeliveries.createdAt,
      direction: 'desc',
      scope: where,
    },
    rows: (window) =>
      deliveriesWithType(db)
        .where(and(where, window.after))
        .orderBy(...window.orderBy)
        .limit(window.limit)
        .offset(window.offset),
    idOf: (row) => row.delivery.id,
    total: async () =>
      (await db.select({ total: count() }).from(webhookDeliveries).where(where))[0]?.total ?? 0,
    items: (rows) => withAttempts(db, rows),
  });
}

async function oneDelivery(db: Db, webhookId: string, deliveryId: string) {
  const [row] = await deliveriesWithType(db).where(
    and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)),
  );
  if (!row) throw notFound('Delivery');
  const [delivery] = await withAttempts(db, [row]);
  if (!delivery) throw notFound('Delivery');
  return delivery;
}

/**
 * Sends a delivery again through the same path as any other: it is due now, with the retry
 * schedule started afresh. A delivery already pending is only made due now.
 */
export async function retryDelivery(opts: {
  db: Db;
  principal: Principal;
  webhookId: string;
  deliveryId: string;
}) {
  const { db, principal, webhookId, deliveryId } = opts;
  await findWebhookRow(db, principal, webhookId);
  const now = new Date();
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', runAttempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)))
    .returning({ id: webhookDeliveries.id });
  if (!row) throw notFound('Delivery');
  return oneDelivery(db, webhookId, deliveryId);
}

/** A `webhook.test` event delivered to this endpoint only, through the usual path. */
export async function sendTestEvent(opts: { db: Db; principal: Principal; webhookId: string }) {
  const { db, principal, webhookId } = opts;
  const webhook = await findWebhookRow(db, principal, webhookId);
  const event = await db.transaction((tx) =>
    recordEvent({
      tx,
      accountId: principal.accountId,
      type: 'webhook.test',
      object: toWebhook(webhook),
      onlyTo: webhook.id,
    }),
  );
  const [delivery] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.eventId, event.id)),
    );
  if (!delivery) throw new Error('the test event has no delivery');
  return oneDelivery(db, webhookId, delivery.id);
}
