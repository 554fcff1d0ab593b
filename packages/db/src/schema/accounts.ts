import { pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const accountTier = pgEnum('account_tier', ['free', 'pro', 'enterprise']);

/** A tenant: an organisation. Everything else belongs to exactly one account. */
export const accounts = pgTable('accounts', {
  id: text().primaryKey(),
  name: text().notNull(),
  tier: accountTier().notNull().default('free'),
  createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
