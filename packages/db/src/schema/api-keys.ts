import { index, pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { userRef } from './users';
import { timestamptz } from './columns';

export const apiKeyEnvironment = pgEnum('api_key_environment', ['live', 'test']);

/** API keys act as the user who created them; only a SHA-256 of the secret is kept. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    userId: userRef(),
    name: text().notNull(),
    environment: apiKeyEnvironment().notNull(),
    tokenHash: text().notNull().unique(),
    lastFour: text().notNull(),
    scopes: text().array().notNull(),
    expiresAt: timestamptz(),
    revokedAt: timestamptz(),
    lastUsedAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('api_keys_account_idx').on(t.accountId, t.createdAt.desc().nullsFirst())],
);
