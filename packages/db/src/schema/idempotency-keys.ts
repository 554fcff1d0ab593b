import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * Idempotency-Key records (decisions §15). The row is the lock: whoever inserts it runs the
 * request; a retry finds it and waits for (409), replays, or refuses (different request).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    /** SHA-256 of who sent what: same key with another request is refused. */
    fingerprint: text().notNull(),
    /** Names the current run; only it may record the answer or release the key. */
    lockToken: text().notNull(),
    lockedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Null while the first request runs. */
    responseStatus: integer(),
    /** The answer's JSON text; null for an empty body (204). */
    responseBody: text(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pkey', columns: [t.accountId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
