import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgEnum, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';
import { events } from './events';

/** Why an endpoint was turned off by the service (docs/webhooks.md); null when it is on or an admin turned it off. */
export const webhookDisabledReason = pgEnum('webhook_disabled_reason', ['gone', 'failing']);

/**
 * A webhook endpoint. Its signing secret is kept encrypted (it must be read back to sign);
 * after a rotation the previous one still signs until `previousSecretExpiresAt`.
 * `failingSince` is the first failure since the last success (5 days of it disable the
 * endpoint).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    url: text().notNull(),
    events: text().array().notNull(),
    description: text().notNull().default(''),
    active: boolean().notNull().default(true),
    disabledReason: webhookDisabledReason(),
    secret: text().notNull(),
    previousSecret: text(),
    previousSecretExpiresAt: timestamptz(),
    failingSince: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
    updatedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('webhooks_account_created_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', [
  'pending',
  'succeeded',
  'failed',
]);

/**
 * One event to one endpoint, made in the transaction that records the event (the outbox),
 * so a committed change always has its deliveries. A pending delivery is due at
 * `nextAttemptAt`; a worker claims it by moving that time forward (a lease), so a worker
 * that dies mid-attempt leaves it due again: at least once.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    webhookId: text()
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    status: webhookDeliveryStatus().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    /** Attempts of the current run: a manual retry starts a new run of the schedule. */
    runAttempts: integer().notNull().default(0),
    nextAttemptAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
    updatedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    unique('webhook_deliveries_event_key').on(t.webhookId, t.eventId),
    index('webhook_deliveries_webhook_created_idx').on(
      t.webhookId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The workers' look-up of what is due: only pending deliveries are in this index.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    // A claim's candidates: each endpoint's due deliveries, oldest first, as many as it may
    // still take (docs/webhooks.md, Delivery).
    index('webhook_deliveries_webhook_due_idx')
      .on(t.webhookId, t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** Each attempt of a delivery, as the delivery log shows it. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text().primaryKey(),
    deliveryId: text()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer().notNull(),
    startedAt: timestamptz().notNull(),
    durationMs: integer().notNull(),
    statusCode: integer(),
    /** The first 1 KiB of the answer, as text. */
    responseExcerpt: text(),
    error: text(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

/**
 * How many deliveries each webhook has: the delivery log's total without reading them. Kept
 * by triggers on `webhook_deliveries` (migration 0022), as the posts' counts are
 * (docs/posts-and-scheduler.md#the-lists-total): every insert and delete, cascades included.
 */
export const webhookDeliveryCounts = pgTable('webhook_delivery_counts', {
  webhookId: text()
    .primaryKey()
    .references(() => webhooks.id, { onDelete: 'cascade' }),
  count: integer().notNull(),
});
