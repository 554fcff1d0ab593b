import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';

/** The payload of an event as webhooks deliver it (docs/webhooks.md). */
export interface EventPayload {
  id: string;
  type: string;
  timestamp: string;
  data: { object: unknown };
}

/**
 * The transactional outbox (docs/webhooks.md): one row per event, written in the same
 * transaction as the change that causes it, so a committed change always has its event and
 * a rolled-back one never does. Delivery reads from here.
 */
export const events = pgTable(
  'events',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    type: text().notNull(),
    payload: jsonb().$type<EventPayload>().notNull(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('events_account_created_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);
