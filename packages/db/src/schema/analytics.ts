import { sql } from 'drizzle-orm';
import { date, index, integer, jsonb, pgEnum, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';

export const trackedEventType = pgEnum('tracked_event_type', [
  'impression',
  'view',
  'click',
  'like',
  'share',
  'comment',
  'follow',
]);

/**
 * A tracked event (decisions §12): recorded by clients, or by an integration sync. `count`
 * is how many occurrences the row stands for (1 for a client's event; a sync records a
 * platform's daily figure as one row). `contentId` names a post of the account, checked when
 * recorded; it is not a foreign key, so history outlives a deleted post.
 */
export const trackedEvents = pgTable(
  'tracked_events',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    type: trackedEventType().notNull(),
    contentId: text(),
    integrationId: text(),
    occurredAt: timestamptz().notNull(),
    properties: jsonb().$type<Record<string, unknown>>().notNull(),
    count: integer().notNull().default(1),
    /** A sync's key for its figure (integration, post, day, type): re-runs update, not add. */
    syncKey: text(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('tracked_events_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    index('tracked_events_account_occurred_idx').on(t.accountId, t.occurredAt),
    index('tracked_events_content_idx')
      .on(t.accountId, t.contentId, t.createdAt.desc())
      .where(sql`${t.contentId} is not null`),
    unique('tracked_events_sync_key').on(t.accountId, t.syncKey),
  ],
);

/**
 * Daily counts per (account, UTC day, type, post, platform), kept in the same transaction as
 * every insert, so that stats read days, never raw events. A missing post or platform is
 * null, and nulls are not distinct in the key.
 */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    accountId: accountRef(),
    day: date({ mode: 'string' }).notNull(),
    type: trackedEventType().notNull(),
    contentId: text(),
    integrationId: text(),
    count: integer().notNull(),
  },
  (t) => [
    unique('analytics_daily_key')
      .on(t.accountId, t.day, t.type, t.contentId, t.integrationId)
      .nullsNotDistinct(),
    index('analytics_daily_content_idx')
      .on(t.accountId, t.contentId, t.day)
      .where(sql`${t.contentId} is not null`),
  ],
);
