import { index, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { users } from './users';

export const apiKeyEnvironment = pgEnum('api_key_environment', ['live', 'test']);

/** API keys act as the user who created them; only a SHA-256 of the secret is kept. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text().primaryKey(),
    accountId: text()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    environment: apiKeyEnvironment().notNull(),
    tokenHash: text().notNull().unique(),
    lastFour: text().notNull(),
    scopes: text().array().notNull(),
    expiresAt: timestamp({ withTimezone: true, precision: 3 }),
    revokedAt: timestamp({ withTimezone: true, precision: 3 }),
    lastUsedAt: timestamp({ withTimezone: true, precision: 3 }),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('api_keys_account_idx').on(t.accountId, t.createdAt.desc())],
);
