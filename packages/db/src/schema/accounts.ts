import { pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

export const accountTier = pgEnum('account_tier', ['free', 'pro', 'enterprise']);

/** A tenant: an organisation. Everything else belongs to exactly one account. */
export const accounts = pgTable('accounts', {
  id: text().primaryKey(),
  name: text().notNull(),
  tier: accountTier().notNull().default('free'),
  createdAt: timestamptz().notNull().defaultNow(),
});

/** A reference to the owning account: deleting the account deletes what it owns. */
export const accountRef = () =>
  text()
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });
