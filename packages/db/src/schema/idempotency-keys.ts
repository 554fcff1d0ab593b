import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';

/**
 * Idempotency-Key records (docs/rate-limits-and-idempotency.md). The row is the lock: whoever inserts it runs the
 * request; a retry finds it and waits for (409), replays, or refuses (different request).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: accountRef(),
    /**
     * Whose key it is: keys are scoped per credential (an API key; an OAuth client for its
     * user; a dashboard session), so another credential's same key is another key.
     */
    credential: text().notNull().default(''),
    key: text().notNull(),
    /** SHA-256 of who sent what: same key with another request is refused. */
    fingerprint: text().notNull(),
    /** Names the current run; only it may record the answer or release the key. */
    lockToken: text().notNull(),
    lockedAt: timestamptz().notNull().defaultNow(),
    /** Null while the first request runs. */
    responseStatus: integer(),
    /** The answer's JSON text, sealed (it may hold a secret); null for an empty body (204). */
    responseBody: text(),
    createdAt: timestamptz().notNull().defaultNow(),
    expiresAt: timestamptz().notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pkey', columns: [t.accountId, t.credential, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
