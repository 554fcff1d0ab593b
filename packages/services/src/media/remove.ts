import type { Readable } from 'node:stream';
import type { Principal } from '@chorus/auth';
import { and, asRead, eq, inArray, media, postMedia, posts, type Db } from '@chorus/db';
import type { ByteRange, StorageDriver } from '@chorus/storage';
import { notFound } from '../shared/errors';
import { recordEvent } from '../events/record';
import { toPosts } from '../posts/records';
import { findMedia, toMedia } from './records';

/**
 * Deletes a media record with its `media.deleted` event in one transaction, then its bytes.
 * The bytes go after the commit: a failure there leaves an unreachable file, returned as
 * `orphan` for the caller to log, never a record whose bytes are gone. Posts lose the
 * attachment (cascade): each is touched and gets its `post.updated` event in the same
 * transaction, so subscribers see every change of a post.
 */
export async function deleteMedia(opts: {
  db: Db;
  principal: Principal;
  id: string;
  storage: StorageDriver;
  origin: string;
}) {
  const { db, principal, id, storage, origin } = opts;
  const row = await db.transaction(async (tx) => {
    const attachedTo = tx
      .select({ id: postMedia.postId })
      .from(postMedia)
      .where(eq(postMedia.mediaId, id));
    // Before the delete: the cascade removes the links.
    const touched = await tx
      .update(posts)
      .set({ updatedAt: new Date() })
      .where(and(eq(posts.accountId, principal.accountId), inArray(posts.id, attachedTo)))
      .returning();
    const [deleted] = await tx
      .delete(media)
      .where(and(eq(media.id, id), eq(media.accountId, principal.accountId)))
      .returning();
    if (!deleted) throw notFound('Media');
    await recordEvent({
      tx,
      accountId: principal.accountId,
      type: 'media.deleted',
      object: toMedia(asRead(deleted), origin),
    });
    for (const post of await toPosts(tx, touched)) {
      await recordEvent({ tx, accountId: principal.accountId, type: 'post.updated', object: post });
    }
    return deleted;
  });
  try {
    await storage.delete(row.storageKey);
    return { orphan: null };
  } catch (error) {
    return { orphan: { key: row.storageKey, error } };
  }
}

/** A media record and a way to open its bytes, so that HEAD and a revalidation open no stream. */
export interface MediaContent {
  row: typeof media.$inferSelect;
  open(range?: ByteRange): Promise<Readable>;
}

export function mediaContent(row: typeof media.$inferSelect, storage: StorageDriver): MediaContent {
  const open = async (range?: ByteRange) => {
    const body = await storage.get(row.storageKey, range);
    // A record whose bytes are gone is our fault, not the caller's: a 500, logged.
    if (!body) throw new Error(`media ${row.id}: no bytes under its storage key`);
    return body;
  };
  return { row, open };
}

/** The account's record (404 otherwise) and its bytes. */
export async function findMediaContent(opts: {
  db: Db;
  principal: Principal;
  id: string;
  storage: StorageDriver;
}): Promise<MediaContent> {
  return mediaContent(await findMedia(opts.db, opts.principal, opts.id), opts.storage);
}
