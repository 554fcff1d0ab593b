import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { userRef, users } from './users';
import { timestamptz } from './columns';

/** What `meta` of a connected integration holds: shown to the account, never secret. */
export interface IntegrationConnectionMeta {
  accountName: string | null;
  pages: string[];
}

/**
 * An account's connection to one third party (one per integration: connecting again replaces
 * it). Disconnecting deletes the row. `credentials` is AES-256-GCM ciphertext, never plaintext.
 */
export const integrationConnections = pgTable(
  'integration_connections',
  {
    accountId: accountRef(),
    integrationId: text().notNull(),
    connectedBy: text().references(() => users.id, { onDelete: 'set null' }),
    credentials: text().notNull(),
    scopes: text().array().notNull(),
    /**
     * When the access token ends, counted from the platform's `expires_in` when it answered; null
     * when it gave none (a token that does not expire). The refresh job renews it before then.
     */
    tokenExpiresAt: timestamptz(),
    meta: jsonb().$type<IntegrationConnectionMeta>().notNull(),
    /**
     * `needs_reconnect` once the platform refused the grant (at publishing, or its refresh token):
     * publishing and the token refresh stop until reconnected.
     */
    status: text({ enum: ['connected', 'needs_reconnect'] })
      .notNull()
      .default('connected'),
    connectedAt: timestamptz().notNull(),
    lastSyncAt: timestamptz().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.integrationId] }),
    index('integration_connections_account_idx').on(t.accountId, t.connectedAt.desc().nullsFirst()),
  ],
);

/**
 * A pending OAuth connection: the `state` we sent to the third party (kept as a SHA-256 hash),
 * bound to the account, the user, the return URL and the PKCE verifier (encrypted).
 * Deleted when used, and dropped once expired.
 */
export const integrationOauthStates = pgTable(
  'integration_oauth_states',
  {
    stateHash: text().primaryKey(),
    accountId: accountRef(),
    userId: userRef(),
    integrationId: text().notNull(),
    redirectUrl: text().notNull(),
    /** The `redirect_uri` sent to the authorize step: the token request must repeat it exactly. */
    callbackUrl: text().notNull(),
    codeVerifier: text().notNull(),
    /** The server the grant is asked of, where it is the user's own (a Mastodon instance). */
    serviceUrl: text(),
    expiresAt: timestamptz().notNull(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('integration_oauth_states_expires_idx').on(t.expiresAt)],
);

/**
 * Chorus's OAuth application on a Mastodon instance, registered there (`POST /api/v1/apps`) the
 * first time an account connects through that instance, for the callback URL it was registered
 * with; the secret sealed. Shared by every account on this deployment, like an app's settings.
 */
export const mastodonApps = pgTable(
  'mastodon_apps',
  {
    instanceUrl: text().notNull(),
    redirectUri: text().notNull(),
    clientId: text().notNull(),
    clientSecret: text().notNull(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.instanceUrl, t.redirectUri] })],
);
