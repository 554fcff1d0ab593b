import { boolean, index, pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { userRef, users } from './users';
import { timestamptz } from './columns';

/**
 * Applications registered by an account's admin for the OAuth 2.0 authorization server
 * (docs/security.md). A confidential client has a secret, kept only as a SHA-256 hash.
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    name: text().notNull(),
    /** Matched exactly, character for character (RFC 6749 §3.1.2.3, docs/security.md). */
    redirectUris: text().array().notNull(),
    scopes: text().array().notNull(),
    confidential: boolean().notNull(),
    secretHash: text(),
    secretLastFour: text(),
    createdBy: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz().notNull().defaultNow(),
    updatedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('oauth_clients_account_idx').on(t.accountId, t.createdAt.desc().nullsFirst())],
);

/**
 * One user's approval of one client, born when an authorization code is exchanged: every
 * token descends from it, so revoking the grant ends them all (code reuse, refresh-token
 * reuse, revocation of a refresh token).
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: text().primaryKey(),
    clientId: text()
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    accountId: accountRef(),
    userId: userRef(),
    scopes: text().array().notNull(),
    createdAt: timestamptz().notNull().defaultNow(),
    revokedAt: timestamptz(),
  },
  (t) => [index('oauth_grants_user_idx').on(t.userId)],
);

/**
 * Authorization codes (RFC 6749 §4.1.2): single use, short-lived, bound to the client, the
 * redirect URI, the user, the scopes and the PKCE challenge. Kept after use (with its grant)
 * so that a second use can be recognised and the grant revoked.
 */
export const oauthAuthorizationCodes = pgTable(
  'oauth_authorization_codes',
  {
    codeHash: text().primaryKey(),
    clientId: text()
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    accountId: accountRef(),
    userId: userRef(),
    redirectUri: text().notNull(),
    /** False when the authorize request left redirect_uri out (one registered URI). */
    redirectUriGiven: boolean().notNull(),
    scopes: text().array().notNull(),
    codeChallenge: text(),
    expiresAt: timestamptz().notNull(),
    usedAt: timestamptz(),
    grantId: text().references(() => oauthGrants.id, { onDelete: 'cascade' }),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('oauth_authorization_codes_expires_idx').on(t.expiresAt)],
);

export const oauthTokenKind = pgEnum('oauth_token_kind', ['access', 'refresh']);

/**
 * Access and refresh tokens, as SHA-256 hashes. A refresh token is retired (`rotatedAt`) when
 * it is exchanged for a new one; presenting a retired one again revokes the grant (RFC 9700).
 */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    id: text().primaryKey(),
    grantId: text()
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    kind: oauthTokenKind().notNull(),
    tokenHash: text().notNull().unique(),
    scopes: text().array().notNull(),
    expiresAt: timestamptz().notNull(),
    rotatedAt: timestamptz(),
    revokedAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('oauth_tokens_grant_idx').on(t.grantId)],
);
