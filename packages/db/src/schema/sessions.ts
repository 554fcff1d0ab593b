import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { userRef } from './users';

/**
 * Dashboard sessions ended by signing out. The session is a JWT the browser holds, so ending
 * it on the server means remembering its id until it would have expired anyway.
 */
export const endedSessions = pgTable('ended_sessions', {
  sessionId: text().primaryKey(),
  userId: userRef(),
  expiresAt: timestamptz().notNull(),
});

/**
 * Failed sign-in counters (per account and address, per address, per user's code step): a
 * fixed window of failures, and the moment until which the key is refused once over its limit.
 */
export const signInThrottles = pgTable('sign_in_throttles', {
  key: text().primaryKey(),
  failures: integer().notNull(),
  windowStartedAt: timestamptz().notNull(),
  blockedUntil: timestamptz(),
});
