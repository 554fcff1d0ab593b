import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accountRef } from './accounts';
import { timestamptz } from './columns';
import { integrationConnections } from './integrations';
import { posts } from './posts';

export const channelKind = pgEnum('channel_kind', ['profile', 'page', 'organization', 'account']);

/**
 * A place on a connected network a post goes to (a Bluesky profile, a Facebook Page, a
 * LinkedIn organisation). Discovered when the integration is connected; deleted with its
 * connection, so targets keep the channel's id without a foreign key and fail with
 * `channel_unavailable` when it is gone. Its id is kept in `retired_channels` and given back
 * when the account discovers the same channel again.
 */
export const channels = pgTable(
  'channels',
  {
    id: text().primaryKey(),
    accountId: accountRef(),
    integrationId: text().notNull(),
    /**
     * The channel's id at the network: a DID, a Page id, `urn:li:organization:…`; on Mastodon
     * `<account id>@<instance domain>`, as an account id is unique only on its instance.
     */
    externalId: text().notNull(),
    kind: channelKind().notNull(),
    name: text().notNull(),
    handle: text().notNull(),
    avatarUrl: text(),
    /** AES-256-GCM ciphertext of the channel's own credentials (a Page token); null: the connection's. */
    credentials: text(),
    /** Limits of this channel that differ from its network's (a Mastodon instance's own). */
    limits: jsonb().$type<Record<string, unknown>>(),
    /** Weekly posting slots, in the account's time zone: `{ day: 'monday', time: '09:30' }`. */
    slots: jsonb().$type<{ day: string; time: string }[]>().notNull().default([]),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      columns: [t.accountId, t.integrationId],
      foreignColumns: [integrationConnections.accountId, integrationConnections.integrationId],
    }).onDelete('cascade'),
    uniqueIndex('channels_connection_external_idx').on(t.accountId, t.integrationId, t.externalId),
  ],
);

/**
 * The id a channel of the account had, by what names it at the network, since it went away (its
 * connection disconnected, or a rediscovery no longer listed it). Discovering that channel again
 * gives it this id back (and drops the row), so the targets that hold the id, published or still
 * to go, are that channel's again (docs/publishing.md, Channels).
 */
export const retiredChannels = pgTable(
  'retired_channels',
  {
    accountId: accountRef(),
    integrationId: text().notNull(),
    externalId: text().notNull(),
    channelId: text().notNull(),
    retiredAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.integrationId, t.externalId] })],
);

export const targetStatus = pgEnum('target_status', [
  'pending',
  'publishing',
  'published',
  'failed',
  'unconfirmed',
]);

/** One part of a thread after the post itself. */
export interface ThreadPart {
  content: string;
  mediaIds?: string[];
}

/** Why a target failed, as the API shows it. */
export interface TargetError {
  code: string;
  message: string;
  retryable: boolean;
}

/**
 * Where one post goes: a channel, with the fields that differ from the post's own (null
 * falls back to the post). Its status is the engine's: claimed (`publishing`) in a
 * transaction before the network call, its outcome written after.
 */
export const postTargets = pgTable(
  'post_targets',
  {
    id: text().primaryKey(),
    postId: text()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: accountRef(),
    channelId: text().notNull(),
    position: integer().notNull(),
    content: text(),
    mediaIds: text().array(),
    firstComment: text(),
    thread: jsonb().$type<ThreadPart[]>(),
    status: targetStatus().notNull().default('pending'),
    externalId: text(),
    url: text(),
    publishedAt: timestamptz(),
    attempts: integer().notNull().default(0),
    error: jsonb().$type<TargetError>(),
    /**
     * How many times what the target sends (its text, media, thread or first comment, its own or
     * the post's it falls back to) has changed. Idempotency keys at the networks derive from the
     * id and this: the same across retries of one text, so a retry after a lost answer lands
     * on the same post, and new for a new text, so the network does not answer with the old one.
     */
    revision: integer().notNull().default(0),
    /** What earlier attempts achieved at the network (the provider's PublishProgress). */
    progress: jsonb()
      .$type<Record<string, string | string[]>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** When the engine may try again (backoff, Retry-After); null: now. */
    nextAttemptAt: timestamptz(),
    /** The first attempt of this round of publishing: retries stop 30 minutes after it. */
    firstAttemptAt: timestamptz(),
    createdAt: timestamptz().notNull().defaultNow(),
    updatedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('post_targets_post_position_idx').on(t.postId, t.position),
    index('post_targets_channel_idx').on(t.channelId),
    // The engine's look-up of targets waiting for an attempt.
    index('post_targets_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
