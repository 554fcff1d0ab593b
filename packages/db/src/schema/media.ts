import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';
import { users } from './users';

/**
 * An uploaded file's record (docs/media.md). The bytes live in the storage driver under
 * `storageKey`, never in the database.
 */
export const media = pgTable(
  'media',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    /** The uploader; kept as null when that user is deleted, the file stays the account's. */
    uploadedBy: text().references(() => users.id, { onDelete: 'set null' }),
    filename: text().notNull(),
    mimeType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    width: integer(),
    height: integer(),
    sha256: text().notNull(),
    altText: text(),
    storageKey: text().notNull(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('media_account_created_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * How many media records each account has: the media list's total without reading them. Kept
 * by triggers on `media` (migration 0021), as the posts' counts are
 * (docs/posts-and-scheduler.md#the-lists-total): every insert and delete, cascades included.
 */
export const mediaCounts = pgTable('media_counts', {
  accountId: accountRef().primaryKey(),
  count: integer().notNull(),
});
