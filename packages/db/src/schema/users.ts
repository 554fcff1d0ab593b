import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';

export const userRole = pgEnum('user_role', ['admin', 'user']);

export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    name: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    role: userRole().notNull().default('user'),
    notifications: boolean().notNull().default(true),
    twoFactorEnabled: boolean().notNull().default(false),
    /** The TOTP secret (RFC 6238), AES-256-GCM sealed; set once enrollment is confirmed. */
    totpSecret: text(),
    /** A secret being enrolled: shown once as a QR code, kept until a code confirms it. */
    totpPendingSecret: text(),
    /** The last TOTP time step accepted, so that a code cannot be used twice. */
    totpLastStep: bigint({ mode: 'number' }),
    lastLoginAt: timestamptz(),
    /**
     * Dashboard sessions carry the generation they were signed in under; raising it (sign-out,
     * a password or role change) ends every existing session of the user at once.
     */
    sessionGeneration: integer().notNull().default(0),
    createdAt: timestamptz().notNull().defaultNow(),
    updatedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    // Emails are unique across all accounts, whatever their case: the database is the judge.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    // The list's order (newest first, id as tie-break), whole or of one role, so that a page
    // or a cursor's next page reads only the rows it answers. NULLS FIRST as `ORDER BY … DESC`
    // means it: an index whose nulls sit elsewhere cannot give that order, even on NOT NULL
    // columns, and PostgreSQL then sorts every user of the account for each page.
    index('users_account_created_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('users_account_role_created_idx').on(
      t.accountId,
      t.role,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * How many users each account has of each role, changed in the same transaction as every
 * insert, role change and delete of a user (`@chorus/services`' `countUsers`), so that the
 * list's total and the last-admin rule never scan `users`.
 */
export const userCounts = pgTable(
  'user_counts',
  {
    accountId: accountRef(),
    role: userRole().notNull(),
    count: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.role] }),
    // A write that forgot to count would sooner or later take a count below zero: refuse it.
    check('user_counts_not_negative', sql`${t.count} >= 0`),
  ],
);

/** A reference to a user: deleting the user deletes what hangs on them (keys, grants). */
export const userRef = () =>
  text()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
