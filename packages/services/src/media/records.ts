import type { Principal } from '@chorus/auth';
import { and, asRead, eq, field, media, mediaCounts, type Db, type RowOf } from '@chorus/db';
import type { Media } from '@chorus/validators';
import { notFound } from '../shared/errors';
import { appOrigin } from '../integrations/settings';
import { assertSendersEditable } from '../posts/attached-media';
import { readTablePage, type PageRequest } from '../shared/pagination';
import type { MediaType } from './inspect';

/** A media record's columns the API shows, as the row reader gives them (the list reads so). */
const mediaFields = {
  id: field.column(media.id),
  filename: field.column(media.filename),
  mimeType: field.column(media.mimeType),
  size: field.bigint(media.size),
  width: field.column(media.width),
  height: field.column(media.height),
  sha256: field.column(media.sha256),
  altText: field.column(media.altText),
  uploadedBy: field.column(media.uploadedBy),
  createdAt: field.timestamp(media.createdAt),
};
type MediaFields = RowOf<typeof mediaFields>;

/**
 * A media record as the API returns it (docs/media.md); `url` on the public origin. A row
 * drizzle read (timestamps as `Date`s) is written so through `asRead`.
 */
export const toMedia = (row: MediaFields, origin: string): Media => ({
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
  createdAt: row.createdAt,
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
    fields: mediaFields,
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
  return toMedia(asRead(await findMedia(opts.db, opts.principal, opts.id)), opts.origin);
}

/**
 * Changes the alt text (the one field a client owns after upload); null clears it. The text
 * goes out with the posts that send the medium, so a change is refused where those posts
 * refuse a change of their media (docs/media.md); the same text again is no change.
 */
export async function updateMedia(opts: {
  db: Db;
  principal: Principal;
  id: string;
  altText?: string | null;
  origin: string;
}) {
  const { db, principal, id, altText, origin } = opts;
  return db.transaction(async (tx) => {
    const row = await findMedia(tx, principal, id);
    if (altText === undefined || altText === row.altText) return toMedia(asRead(row), origin);
    await assertSendersEditable(tx, principal, id, 'altText');
    const [updated] = await tx
      .update(media)
      .set({ altText })
      .where(and(eq(media.id, id), eq(media.accountId, principal.accountId)))
      .returning();
    if (!updated) throw notFound('Media');
    return toMedia(asRead(updated), origin);
  });
}
