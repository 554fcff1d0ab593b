import type { Principal } from '@chorus/auth';
import { and, eq, media, mediaCounts, type Db } from '@chorus/db';
import type { Media } from '@chorus/validators';
import { notFound } from '../shared/errors';
import { appOrigin } from '../integrations/settings';
import { readTablePage, type PageRequest } from '../shared/pagination';
import type { MediaType } from './inspect';

export type MediaRow = typeof media.$inferSelect;

/** A media record as the API returns it (docs/media.md); `url` on the public origin. */
export const toMedia = (row: MediaRow, origin: string): Media => ({
  id: row.id,
  filename: row.filename,
  mimeType: row.mimeType as MediaType,
  size: row.size,
  width: row.width,
  height: row.height,
  sha256: row.sha256,
  altText: row.altText,
  url: `${appOrigin(origin)}/api/content/media/${row.id}/content`,
  uploadedBy: row.uploadedBy,
  createdAt: row.createdAt.toISOString(),
});

/** The account's media row with this id; another account's is as unknown as a missing one. */
export async function findMedia(db: Pick<Db, 'select'>, principal: Principal, id: string) {
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.id, id), eq(media.accountId, principal.accountId)))
    .limit(1);
  if (!row) throw notFound('Media');
  return row;
}

export async function listMedia(opts: {
  db: Db;
  principal: Principal;
  page: PageRequest;
  origin: string;
}) {
  const { db, principal, page, origin } = opts;
  const where = eq(media.accountId, principal.accountId);
  return readTablePage({
    db,
    request: page,
    order: { table: media, id: media.id, by: media.createdAt, direction: 'desc', scope: where },
    where,
    // The count the database keeps (migration 0021): one row, however many records.
    total: async () =>
      (
        await db
          .select({ count: mediaCounts.count })
          .from(mediaCounts)
          .where(eq(mediaCounts.accountId, principal.accountId))
      )[0]?.count ?? 0,
    items: (rows) => rows.map((row) => toMedia(row, origin)),
  });
}

export async function getMedia(opts: { db: Db; principal: Principal; id: string; origin: string }) {
  return toMedia(await findMedia(opts.db, opts.principal, opts.id), opts.origin);
}

/** Changes the alt text (the one field a client owns after upload); null clears it. */
export async function updateMedia(opts: {
  db: Db;
  principal: Principal;
  id: string;
  altText?: string | null;
  origin: string;
}) {
  const { db, principal, id, altText, origin } = opts;
  const row = await findMedia(db, principal, id);
  if (altText === undefined) return toMedia(row, origin);
  const [updated] = await db
    .update(media)
    .set({ altText })
    .where(and(eq(media.id, id), eq(media.accountId, principal.accountId)))
    .returning();
  if (!updated) throw notFound('Media');
  return toMedia(updated, origin);
}
