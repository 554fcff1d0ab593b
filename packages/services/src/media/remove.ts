import type { Readable } from 'node:stream';
import type { Principal } from '@chorus/auth';
import { and, asRead, eq, media, type Db } from '@chorus/db';
import type { ByteRange, StorageDriver } from '@chorus/storage';
import { notFound } from '../shared/errors';
import { recordEvent } from '../events/record';
import { findMedia, toMedia } from './records';

/**
 * Deletes a media record with its `media.deleted` event in one transaction, then its bytes.
 * The bytes go after the commit: a failure there leaves an unreachable file, returned as
 * `orphan` for the caller to log, never a record whose bytes are gone. Posts keep the id
 * (`post_media` has no foreign key to `media`): a post that was to send the medium must not go
 * out without it, so validating, scheduling and publishing name it and the engine fails its
 * targets `media_unavailable` (docs/media.md, Deleting). The posts themselves do not change.
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
