import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';
import { posts } from './posts';
import { users } from './users';

/**
 * What happened to a post, who did it and when: written in the same transaction as the change
 * it records, so the story never tells of a change that rolled back, nor misses one that
 * committed. Goes with its post.
 */
export const postActivity = pgTable(
  'post_activity',
  {
    id: text().primaryKey(),
    /** Insertion order: several entries of one transaction share a millisecond. */
    seq: bigint({ mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    accountId: accountRef(),
    postId: text()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    /** The member who did it; null for Chorus itself (the scheduler, the publishing engine). */
    actorId: text().references(() => users.id, { onDelete: 'set null' }),
    action: text().notNull(),
    /** The target an outcome concerns, for publishing outcomes. */
    targetId: text(),
    channelId: text(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('post_activity_post_seq_idx').on(t.postId, t.seq.desc().nullsFirst())],
);
