import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  jsonb,
  pgEnum,
  pgTable,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
 * A tracked event (docs/analytics.md): recorded by clients, or by an integration sync. `count`
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
    count: bigint({ mode: 'number' }).notNull().default(1),
    /** A sync's key for its figure (integration, post, day, type): re-runs update, not add. */
    syncKey: text(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('tracked_events_account_created_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('tracked_events_content_idx')
      .on(t.accountId, t.contentId, t.createdAt.desc().nullsFirst())
      .where(sql`${t.contentId} is not null`),
    uniqueIndex('tracked_events_sync_key')
      .on(t.accountId, t.syncKey)
      .where(sql`${t.syncKey} is not null`),
  ],
);

/**
 * The most one daily count may reach (one type, one day, one post and platform). 64-bit
 * columns hold far more; this bound keeps every sum the stats read a safe JavaScript integer:
 * 366 days × 16 platforms × 10^12 ≈ 5.9 × 10^15 < 2^53 − 1 ≈ 9.0 × 10^15. A batch that would
 * pass it is refused whole (400), by the check constraint of each grain.
 */
export const MAX_DAILY_COUNT = 1_000_000_000_000;

const COUNT_TYPES = ['impression', 'view', 'click', 'like', 'share', 'comment', 'follow'] as const;

/** One count column per type: a day's figures are one row, whatever the mix of types. */
const typeCounts = () => ({
  impression: bigint({ mode: 'number' }).notNull().default(0),
  view: bigint({ mode: 'number' }).notNull().default(0),
  click: bigint({ mode: 'number' }).notNull().default(0),
  like: bigint({ mode: 'number' }).notNull().default(0),
  share: bigint({ mode: 'number' }).notNull().default(0),
  comment: bigint({ mode: 'number' }).notNull().default(0),
  follow: bigint({ mode: 'number' }).notNull().default(0),
});

/** `<table>_cap`: no count of the row past MAX_DAILY_COUNT (the name says which grain). */
const capped = (table: string, t: Record<(typeof COUNT_TYPES)[number], unknown>) =>
  check(
    `${table}_cap`,
    sql`greatest(${sql.join(
      COUNT_TYPES.map((type) => sql`${t[type]}`),
      sql`, `,
    )}) <= ${sql.raw(String(MAX_DAILY_COUNT))}`,
  );

/**
 * Daily counts, kept in the same transaction as every insert so that stats read days, never
 * raw events (docs/analytics.md). Three grains, each as small as its readers allow:
 *
 * - per (day, post, platform): the figures of one post (`content_id` filtered);
 * - per (day, platform): the account's totals, daily series and platform breakdown;
 * - per (day, post): the ranking of posts.
 *
 * A missing post or platform is null, and nulls are not distinct in the keys.
 */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    accountId: accountRef(),
    day: date({ mode: 'string' }).notNull(),
    contentId: text(),
    integrationId: text(),
    ...typeCounts(),
  },
  (t) => [
    unique('analytics_daily_key')
      .on(t.accountId, t.contentId, t.day, t.integrationId)
      .nullsNotDistinct(),
    capped('analytics_daily', t),
  ],
);

export const analyticsDailyByPlatform = pgTable(
  'analytics_daily_by_platform',
  {
    accountId: accountRef(),
    day: date({ mode: 'string' }).notNull(),
    integrationId: text(),
    ...typeCounts(),
  },
  (t) => [
    unique('analytics_daily_by_platform_key')
      .on(t.accountId, t.day, t.integrationId)
      .nullsNotDistinct(),
    capped('analytics_daily_by_platform', t),
  ],
);

export const analyticsDailyByContent = pgTable(
  'analytics_daily_by_content',
  {
    accountId: accountRef(),
    day: date({ mode: 'string' }).notNull(),
    contentId: text().notNull(),
    ...typeCounts(),
  },
  (t) => [
    unique('analytics_daily_by_content_key').on(t.accountId, t.day, t.contentId),
    capped('analytics_daily_by_content', t),
  ],
);
