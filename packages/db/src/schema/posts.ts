import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';
import { users } from './users';

export const postStatus = pgEnum('post_status', [
  'draft',
  'pending_approval',
  'scheduled',
  'publishing',
  'published',
  'failed',
  'archived',
]);

/** A post (docs/posts-and-scheduler.md). `scheduledAt` is set only while the post is scheduled or published. */
export const posts = pgTable(
  'posts',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    /** The author; kept as null when that user is deleted, the post stays the account's. */
    authorId: text().references(() => users.id, { onDelete: 'set null' }),
    title: text().notNull(),
    content: text().notNull().default(''),
    status: postStatus().notNull().default('draft'),
    tags: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    scheduledAt: timestamptz(),
    publishedAt: timestamptz(),
    /** The last rejection's comment, author and time; cleared when the post is submitted again. */
    rejectionComment: text(),
    rejectedBy: text().references(() => users.id, { onDelete: 'set null' }),
    rejectedAt: timestamptz(),
    /** An RRULE (daily, weekly or monthly) read in the account's time zone from `scheduledAt`. */
    recurrence: text(),
    /**
     * A series' next occurrence not yet published; null when the post is no active series (not
     * scheduled, or its rule has ended). Written with the rule, so the scheduler finds due
     * series by index instead of evaluating every rule.
     */
    nextOccurrenceAt: timestamptz(),
    /** The series a copy was published from; null once that series is deleted. */
    recurrenceOf: text().references((): AnyPgColumn => posts.id, { onDelete: 'set null' }),
    createdAt: timestamptz().notNull().defaultNow(),
    updatedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('posts_account_created_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The list's scheduledFrom/To and publishedFrom/To within one account (the calendar's
    // month); without them a range read every post of the account. Ascending, as
    // `sort=scheduledAt` reads (ASC NULLS LAST), which this index now gives without a sort.
    // The list filtered by status, newest first: a page reads only the rows it answers.
    index('posts_account_status_created_idx').on(
      t.accountId,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('posts_account_scheduled_idx').on(t.accountId, t.scheduledAt, t.id),
    // Only published posts (and archived ones, which keep it) have a `publishedAt`.
    index('posts_account_published_idx')
      .on(t.accountId, t.publishedAt)
      .where(sql`${t.publishedAt} is not null`),
    // The scheduler's look-up of what is due: only scheduled one-off posts are in this index
    // (a series stays scheduled after its start; its occurrences are found by the next one).
    index('posts_due_idx')
      .on(t.scheduledAt)
      .where(sql`${t.status} = 'scheduled' and ${t.recurrence} is null`),
    index('posts_tags_idx').using('gin', t.tags),
    // The scheduler's look-up of due series: only active series are in this index.
    index('posts_series_due_idx')
      .on(t.nextOccurrenceAt)
      .where(sql`${t.status} = 'scheduled' and ${t.nextOccurrenceAt} is not null`),
    index('posts_recurrence_of_idx')
      .on(t.recurrenceOf)
      .where(sql`${t.recurrenceOf} is not null`),
  ],
);

/**
 * The occurrences a series has published, one row each: the primary key is what makes each
 * occurrence go out once, whatever number of workers reach it.
 */
export const postOccurrences = pgTable(
  'post_occurrences',
  {
    postId: text()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    occurrenceAt: timestamptz().notNull(),
    /** The copy published for it; null once that copy is deleted. */
    copyId: text().references(() => posts.id, { onDelete: 'set null' }),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.occurrenceAt] })],
);

/**
 * The media attached to a post, in order. Deleting the post removes its links; deleting a
 * medium does not.
 */
export const postMedia = pgTable(
  'post_media',
  {
    postId: text()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    /**
     * No foreign key: a deleted medium's id stays, as a target's `mediaIds` keep theirs, so a
     * post that was to send it is refused or fails `media_unavailable` instead of going out
     * without it (docs/media.md, Deleting; migration 0024).
     */
    mediaId: text().notNull(),
    position: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.mediaId] }),
    index('post_media_media_idx').on(t.mediaId),
  ],
);

/**
 * How many posts an account has in each status: the posts list's total without reading the
 * account's posts (docs/posts-and-scheduler.md#the-lists-total). Kept by a trigger on `posts`
 * (migration 0020), not by the services: a post's status changes in a dozen places (writes,
 * approval, the scheduler, the publishing engine, retries, imports), and a count one of them
 * forgot would be wrong for good; the trigger sees every insert, update and delete.
 */
export const postCounts = pgTable(
  'post_counts',
  {
    accountId: accountRef(),
    status: postStatus().notNull(),
    count: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.status] })],
);

/** As `post_counts`, per tag: the total of the list filtered by tag (and status). */
export const postTagCounts = pgTable(
  'post_tag_counts',
  {
    accountId: accountRef(),
    status: postStatus().notNull(),
    tag: text().notNull(),
    count: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.tag, t.status] })],
);
