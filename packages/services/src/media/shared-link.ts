import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { eq, media, type Db } from '@chorus/db';
import type { StorageDriver } from '@chorus/storage';
import { notFound } from '../shared/errors';
import { readEncryptionKey } from '../integrations/settings';
import { mediaContent } from './remove';

/**
 * Links to a media file's bytes for networks that fetch media themselves (Instagram, Threads):
 * no credential, an HMAC over the id and the expiry instead, valid for an hour at most. The
 * key is derived from CHORUS_ENCRYPTION_KEY (every instance has it, nothing new to configure),
 * apart from the key that seals credentials.
 */
export const SHARED_LINK_SECONDS = 3600;

const signingKeys = new Map<string, Buffer>();

function signingKey(): Buffer {
  const { key } = readEncryptionKey();
  const id = key.toString('base64');
  let derived = signingKeys.get(id);
  if (!derived) {
    derived = Buffer.from(hkdfSync('sha256', key, '', 'chorus media shared link v1', 32));
    signingKeys.set(id, derived);
  }
  return derived;
}

const signature = (id: string, expires: number) =>
  createHmac('sha256', signingKey()).update(`${id}.${expires}`).digest('base64url');

/** The path of a file's shared link: the same file as the authenticated `…/content`. */
export const sharedLinkPath = (id: string) => `/api/content/media/${id}/shared`;

/** A link to the bytes of media `id` on `origin`, expiring `seconds` from `now`. */
export function sharedMediaUrl(
  origin: string,
  id: string,
  opts: { now?: Date; seconds?: number } = {},
): string {
  const seconds = Math.min(opts.seconds ?? SHARED_LINK_SECONDS, SHARED_LINK_SECONDS);
  const expires = Math.floor((opts.now ?? new Date()).getTime() / 1000) + seconds;
  const url = new URL(sharedLinkPath(id), origin);
  url.searchParams.set('expires', String(expires));
  url.searchParams.set('signature', signature(id, expires));
  return url.toString();
}

/** Is this a link we made for `id`, not yet expired? Compared in constant time. */
export function verifySharedLink(id: string, query: URLSearchParams, now = new Date()): boolean {
  const expiresText = query.get('expires') ?? '';
  const given = Buffer.from(query.get('signature') ?? '');
  if (!/^\d{1,12}$/.test(expiresText)) return false;
  const expires = Number(expiresText);
  const nowSeconds = now.getTime() / 1000;
  // Never more than an hour ahead (a minute's grace for clocks): no link outlives its hour.
  if (expires < nowSeconds || expires > nowSeconds + SHARED_LINK_SECONDS + 60) return false;
  const expected = Buffer.from(signature(id, expires));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The record a verified link names (404 once deleted) and its bytes. */
export async function findSharedMedia(db: Db, storage: StorageDriver, id: string) {
  const [row] = await db.select().from(media).where(eq(media.id, id));
  if (!row) throw notFound('Media');
  return mediaContent(row, storage);
}
