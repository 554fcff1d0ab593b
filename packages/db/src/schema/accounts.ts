import { boolean, pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

export const accountTier = pgEnum('account_tier', ['free', 'pro', 'enterprise']);

/** A tenant: an organisation. Everything else belongs to exactly one account. */
export const accounts = pgTable('accounts', {
  id: text().primaryKey(),
  name: text().notNull(),
  tier: accountTier().notNull().default('free'),
  /** Settings (docs/settings-and-import-export.md): members' posts need an admin's approval before going out. */
  requireApproval: boolean().notNull().default(false),
  /**
   * The IANA zone of slots, recurrence and the dashboard's calendar. Checked by the service
   * (Intl knows the zones; the database does not), so it is only ever written valid.
   */
  timeZone: text().notNull().default('UTC'),
  createdAt: timestamptz().notNull().defaultNow(),
});

/** A reference to the owning account: deleting the account deletes what it owns. */
export const accountRef = () =>
  text()
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });
