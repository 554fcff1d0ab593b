import { sql } from 'drizzle-orm';
import { boolean, index, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export const userRole = pgEnum('user_role', ['admin', 'user']);

export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    accountId: text()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    role: userRole().notNull().default('user'),
    notifications: boolean().notNull().default(true),
    twoFactorEnabled: boolean().notNull().default(false),
    lastLoginAt: timestamp({ withTimezone: true, precision: 3 }),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // Emails are unique across all accounts, whatever their case: the database is the judge.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
  ],
);
