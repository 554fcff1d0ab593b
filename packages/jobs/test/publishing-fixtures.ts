import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  and,
  channels,
  eq,
  events,
  integrationConnections,
  media,
  postMedia,
  postTargets,
  posts,
  sql,
  type Db,
  type ThreadPart,
} from '@chorus/db';
import type { StorageDriver } from '@chorus/storage';
import {
  newId,
  sealChannelCredentials,
  sealConnectionCredentials,
  type ProviderCredentials,
} from '@chorus/services';

/**
 * Channels, posts and targets written straight into the database, as the API side writes them
 * (connect, create with targets, schedule): the engine's tests start from that state.
 */

export const targetIdOf = () => newId('tgt');

/** A connection of `integrationId` with one channel; credentials on the connection by default. */
export async function seedChannel(
  db: Db,
  opts: {
    accountId: string;
    integrationId: string;
    credentials: ProviderCredentials;
    externalId?: string;
    handle?: string;
    /** Keep the credentials on the channel (a Page token) instead of the connection. */
    onChannel?: boolean;
    tokenExpiresAt?: Date;
    kind?: 'oauth2' | 'api_key';
  },
): Promise<string> {
  const { accountId, integrationId, credentials } = opts;
  const now = new Date();
  const stored =
    opts.kind === 'api_key'
      ? {
          kind: 'api_key' as const,
          apiKey: credentials.accessToken,
          ...(credentials.refreshToken ? { refreshToken: credentials.refreshToken } : {}),
          ...(credentials.extra ? { extra: credentials.extra } : {}),
        }
      : {
          kind: 'oauth2' as const,
          accessToken: credentials.accessToken,
          ...(credentials.refreshToken ? { refreshToken: credentials.refreshToken } : {}),
          ...(credentials.extra ? { extra: credentials.extra } : {}),
        };
  await db
    .insert(integrationConnections)
    .values({
      accountId,
      integrationId,
      credentials: sealConnectionCredentials(accountId, integrationId, stored),
      scopes: [],
      tokenExpiresAt: opts.tokenExpiresAt ?? null,
      meta: { accountName: integrationId, pages: [] },
      connectedAt: now,
      lastSyncAt: now,
    })
    .onConflictDoNothing();
  const id = newId('chn');
  await db.insert(channels).values({
    id,
    accountId,
    integrationId,
    externalId: opts.externalId ?? `ext-${id}`,
    kind: 'account',
    name: integrationId,
    handle: opts.handle ?? `@${integrationId}`,
    credentials: opts.onChannel ? sealChannelCredentials({ accountId, id }, credentials) : null,
  });
  return id;
}

export interface TargetSpec {
  channelId: string;
  content?: string;
  mediaIds?: string[];
  thread?: ThreadPart[];
  firstComment?: string;
}

/** A post with targets, `scheduled` at `scheduledAt` (or `publishing` now: publish-now). */
export async function insertPost(
  db: Db,
  opts: {
    accountId: string;
    content: string;
    targets: TargetSpec[];
    mediaIds?: string[];
    scheduledAt?: Date;
    publishNow?: boolean;
  },
) {
  const postId = newId('post');
  const targetIds = opts.targets.map(() => targetIdOf());
  await db.transaction(async (tx) => {
    await tx.insert(posts).values({
      id: postId,
      accountId: opts.accountId,
      title: 'Engine',
      content: opts.content,
      status: opts.publishNow ? 'publishing' : 'scheduled',
      scheduledAt: opts.publishNow ? null : (opts.scheduledAt ?? new Date()),
    });
    if (opts.mediaIds?.length) {
      await tx
        .insert(postMedia)
        .values(opts.mediaIds.map((mediaId, position) => ({ postId, mediaId, position })));
    }
    if (opts.targets.length > 0) {
      await tx.insert(postTargets).values(
        opts.targets.map((target, position) => ({
          id: targetIds[position] ?? '',
          postId,
          accountId: opts.accountId,
          channelId: target.channelId,
          position,
          content: target.content ?? null,
          mediaIds: target.mediaIds ?? null,
          thread: target.thread ?? null,
          firstComment: target.firstComment ?? null,
        })),
      );
    }
  });
  return { postId, targetIds };
}

/** An uploaded image: its bytes in storage and its record, as an upload leaves them. */
export async function storeMedia(
  db: Db,
  storage: StorageDriver,
  opts: { accountId: string; bytes: Buffer; mimeType?: string },
) {
  const id = newId('med');
  const storageKey = `${opts.accountId}/${id}`;
  const mimeType = opts.mimeType ?? 'image/png';
  await storage.put(storageKey, Readable.from([opts.bytes]), { contentType: mimeType });
  await db.insert(media).values({
    id,
    accountId: opts.accountId,
    filename: 'image.png',
    mimeType,
    size: opts.bytes.length,
    width: 10,
    height: 10,
    sha256: createHash('sha256').update(opts.bytes).digest('hex'),
    altText: 'A test image',
    storageKey,
  });
  return id;
}

export const targetsOf = (db: Db, postId: string) =>
  db.select().from(postTargets).where(eq(postTargets.postId, postId)).orderBy(postTargets.position);

/** The account's connection of `integrationId`, as stored (undefined when there is none). */
export async function connectionRow(db: Db, accountId: string, integrationId: string) {
  const [row] = await db
    .select()
    .from(integrationConnections)
    .where(
      and(
        eq(integrationConnections.accountId, accountId),
        eq(integrationConnections.integrationId, integrationId),
      ),
    );
  return row;
}

export async function postStatus(db: Db, postId: string) {
  const [row] = await db.select({ status: posts.status }).from(posts).where(eq(posts.id, postId));
  return row?.status;
}

/** The types of the events recorded about a post, in order. */
export async function eventTypesOf(db: Db, postId: string) {
  const rows = await db
    .select({ type: events.type })
    .from(events)
    .where(and(sql`${events.payload}->'data'->'object'->>'id' = ${postId}`))
    .orderBy(events.createdAt, events.id);
  return rows.map((row) => row.type);
}
