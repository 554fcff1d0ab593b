import type { Principal } from '@chorus/auth';
import {
  and,
  asc,
  asRead,
  eq,
  events,
  field,
  inArray,
  qualified,
  readRows,
  sql,
  webhookAttempts,
  webhookDeliveries,
  webhookDeliveryCounts,
  type Db,
  type RowOf,
} from '@chorus/db';
import type { WebhookDelivery } from '@chorus/validators';
import { AppError, notFound } from '../shared/errors';
import { recordEvent } from '../events/record';
import { readTablePage, type PageRequest } from '../shared/pagination';
import { findWebhookRow } from './endpoints';
import { toWebhook, type WebhookRow } from './records';

/**
 * A delivery's columns the log shows, as the row reader gives them, with its event's type: a
 * subquery, as the event is always there (a delivery goes with its event, `on delete cascade`).
 */
const deliveryFields = {
  id: field.column(webhookDeliveries.id),
  eventId: field.column(webhookDeliveries.eventId),
  eventType: field.sql(
    sql<string>`(select ${events.type} from ${events} where ${events.id} = ${qualified(webhookDeliveries.eventId)})`,
  ),
  status: field.column(webhookDeliveries.status),
  nextAttemptAt: field.timestamp(webhookDeliveries.nextAttemptAt),
  createdAt: field.timestamp(webhookDeliveries.createdAt),
  updatedAt: field.timestamp(webhookDeliveries.updatedAt),
};
type DeliveryFields = RowOf<typeof deliveryFields>;

const attemptFields = {
  deliveryId: field.column(webhookAttempts.deliveryId),
  attempt: field.column(webhookAttempts.attempt),
  at: field.timestamp(webhookAttempts.startedAt),
  statusCode: field.column(webhookAttempts.statusCode),
  durationMs: field.column(webhookAttempts.durationMs),
  responseExcerpt: field.column(webhookAttempts.responseExcerpt),
  error: field.column(webhookAttempts.error),
};
type AttemptFields = RowOf<typeof attemptFields>;

const toDelivery = (row: DeliveryFields, attempts: AttemptFields[]): WebhookDelivery => ({
  id: row.id,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
  attempts: attempts.map((a) => ({
    attempt: a.attempt,
    at: a.at,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    responseExcerpt: a.responseExcerpt,
    error: a.error,
  })),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Deliveries with their attempts, in the order given. */
async function withAttempts(db: Db, rows: DeliveryFields[]) {
  const ids = rows.map((row) => row.id);
  const attempts =
    ids.length === 0
      ? []
      : await readRows(db, attemptFields, (db, select) =>
          db
            .select(select)
            .from(webhookAttempts)
            .where(inArray(webhookAttempts.deliveryId, ids))
            .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.attempt)),
        );
  const byDelivery = new Map<string, AttemptFields[]>(rows.map((row) => [row.id, []]));
  for (const a of attempts) byDelivery.get(a.deliveryId)?.push(a);
  return rows.map((row) => toDelivery(row, byDelivery.get(row.id) ?? []));
}

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
  return readTablePage({
    db,
    request: page,
    order: {
      table: webhookDeliveries,
      id: webhookDeliveries.id,
      by: webhookDeliveries.createdAt,
      direction: 'desc',
      scope: where,
    },
    where,
    fields: deliveryFields,
    // The count the database keeps (migration 0022): one row, however many deliveries.
    total: async () =>
      (
        await db
          .select({ count: webhookDeliveryCounts.count })
          .from(webhookDeliveryCounts)
          .where(eq(webhookDeliveryCounts.webhookId, webhookId))
      )[0]?.count ?? 0,
    items: (rows) => withAttempts(db, rows),
  });
}

async function oneDelivery(db: Db, webhookId: string, deliveryId: string) {
  const [row] = await readRows(db, deliveryFields, (db, select) =>
    db
      .select(select)
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId))),
  );
  if (!row) throw notFound('Delivery');
  const [delivery] = await withAttempts(db, [row]);
  if (!delivery) throw notFound('Delivery');
  return delivery;
}

/**
 * A switched-off endpoint is sent nothing, so what was asked of it is refused now (409), where
 * accepting it would answer `pending` and fail later for a reason the caller never saw.
 */
function assertActive(webhook: WebhookRow, action: string) {
  if (webhook.active) return;
  throw new AppError(
    'webhook_inactive',
    `This webhook is switched off: switch it on (active: true) to ${action}.`,
  );
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
  assertActive(await findWebhookRow(db, principal, webhookId), 'retry a delivery');
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
  assertActive(webhook, 'send it a test');
  const event = await db.transaction((tx) =>
    recordEvent({
      tx,
      accountId: principal.accountId,
      type: 'webhook.test',
      object: toWebhook(asRead(webhook)),
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
