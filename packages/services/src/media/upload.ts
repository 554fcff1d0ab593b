import { Readable } from 'node:stream';
import type { Principal } from '@chorus/auth';
import { asRead, media, type Db } from '@chorus/db';
import type { StorageDriver } from '@chorus/storage';
import { recordEvent } from '../events/record';
import { newId } from '../shared/ids';
import { dimensions, inspectUpload, type MediaType } from './inspect';
import { toMedia } from './records';

/** Bytes in storage that no record names yet: committed, or discarded. */
export interface StagedUpload {
  id: string;
  storageKey: string;
  filename: string;
  mimeType: MediaType;
  size: number;
  width: number | null;
  height: number | null;
  sha256: string;
}

/** The client's file name without any path, control characters or excess length. */
export function cleanFilename(name: string | undefined, type: MediaType): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  // By code point, so that no character is cut in half.
  const clean = [...base.trim()]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .slice(0, 255)
    .join('')
    .trim();
  return clean || `upload.${type.split('/')[1] ?? 'bin'}`;
}

/**
 * Streams an upload into storage while checking it (docs/media.md): the type comes from the
 * first bytes (415 before anything is stored), the size is counted as it streams (413 the
 * moment it passes `maxBytes`, the partial object removed by the driver). Nothing is written
 * to the database here: see `commitUpload` and `discardUpload`.
 */
export async function stageUpload(opts: {
  storage: StorageDriver;
  principal: Principal;
  file: AsyncIterable<Uint8Array>;
  filename: string | undefined;
  maxBytes: number;
}): Promise<StagedUpload> {
  const { storage, principal, maxBytes } = opts;
  const { type, chunks, result } = await inspectUpload(opts.file, maxBytes);
  const id = newId('med');
  const storageKey = `${principal.accountId}/${id}`;
  await storage.put(storageKey, Readable.from(chunks, { objectMode: false }), {
    contentType: type,
  });
  const staged = {
    id,
    storageKey,
    filename: cleanFilename(opts.filename, type),
    mimeType: type,
    size: result.size,
    sha256: result.sha256,
  };
  try {
    return { ...staged, ...dimensions(type, result.header) };
  } catch (error) {
    await storage.delete(storageKey);
    throw error;
  }
}

/** Removes staged bytes that will not be recorded (a refused or replayed request). */
export async function discardUpload(opts: { storage: StorageDriver; staged: StagedUpload }) {
  await opts.storage.delete(opts.staged.storageKey);
}

/** Records staged bytes with their `media.uploaded` event, in one transaction (docs/media.md). */
export async function commitUpload(opts: {
  db: Db;
  principal: Principal;
  staged: StagedUpload;
  altText: string | null;
  origin: string;
}) {
  const { db, principal, staged, altText, origin } = opts;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(media)
      .values({ ...staged, accountId: principal.accountId, uploadedBy: principal.userId, altText })
      .returning();
    if (!row) throw new Error('insert returned no row');
    const record = toMedia(asRead(row), origin);
    await recordEvent({
      tx,
      accountId: principal.accountId,
      type: 'media.uploaded',
      object: record,
    });
    return record;
  });
}
