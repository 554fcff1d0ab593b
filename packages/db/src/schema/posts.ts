import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';
import { media } from './media';
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

/** A post (decisions §10). `scheduledAt` is set only while the post is scheduled or published. */
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
    index('posts_account_scheduled_idx').on(t.accountId, t.scheduledAt, t.id),
    // Only published posts (and archived ones, which keep it) have a `publishedAt`.
    index('posts_account_published_idx')
      .on(t.accountId, t.publishedAt)
      .where(sql`${t.publishedAt} is not null`),
    // The scheduler's look-up of what is due: only scheduled posts are in this index.
    index('posts_due_idx')
      .on(t.scheduledAt)
      .where(sql`${t.status} = 'scheduled'`),
    index('posts_tags_idx').using('gin', t.tags),
  ],
);

/** The media attached to a post, in order. Deleting either side removes the link. */
export const postMedia = pgTable(
  'post_media',
  {
    postId: text()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    mediaId: text()
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.mediaId] }),
    index('post_media_media_idx').on(t.mediaId),
  ],
);
