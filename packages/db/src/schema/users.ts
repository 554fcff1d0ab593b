import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
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
    index('users_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
  ],
);

/** A reference to a user: deleting the user deletes what hangs on them (keys, grants). */
export const userRef = () =>
  text()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
