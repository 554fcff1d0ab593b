import type { Principal } from '@chorus/auth';
import { and, desc, eq, lt, or, posts, type Db } from '@chorus/db';
import type { Post } from '@chorus/validators';
import { postFilters, type PostFilters } from '../posts/filters';
import { toPosts, type PostRow } from '../posts/records';

/** Posts read per query: bounds the memory an export holds at once. */
export const EXPORT_BATCH = 500;

/**
 * The account's posts matching the list's filters, newest first, as batches read by keyset
 * (`createdAt`, `id`): never the whole list in memory, and no offset that slows deep pages.
 * Each batch is its own query; a post created during the export after its first batch may be
 * left out (it is newer than where the export started), none is repeated.
 */
export async function* exportPosts(opts: {
  db: Db;
  principal: Principal;
  filters: PostFilters;
  batchSize?: number;
}): AsyncGenerator<Post[]> {
  const { db, principal, filters } = opts;
  const batchSize = opts.batchSize ?? EXPORT_BATCH;
  const where = postFilters(principal, filters);
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const rows: PostRow[] = await db
      .select()
      .from(posts)
      .where(
        after
          ? and(
              where,
              or(
                lt(posts.createdAt, after.createdAt),
                and(eq(posts.createdAt, after.createdAt), lt(posts.id, after.id)),
              ),
            )
          : where,
      )
      .orderBy(desc(posts.createdAt), desc(posts.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield await toPosts(db, rows);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    if (!last) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
