import { pageCount, type Page } from '@chorus/services';

/** `{ success: true, data }`: the general envelope of table-B endpoints. */
export const ok = <T>(data: T) => ({ success: true as const, data });

/** A page of a table-B list in the general envelope, with the cursor of the next page. */
export const okPage = <T>(page: Page<T>) => ({
  success: true as const,
  data: page.items,
  meta: {
    pagination: {
      total: page.total,
      count: page.items.length,
      perPage: page.limit,
      currentPage: page.page,
      totalPages: pageCount(page.total, page.limit),
      nextCursor: page.nextCursor,
    },
  },
});

/**
 * A page of the users list in its own shape (docs/api.md, table A): `pagination` by page
 * number, and `meta.pagination.nextCursor` when the page was asked by cursor.
 */
export const usersPage = <T>(page: Page<T>, byCursor: boolean) => ({
  data: page.items,
  pagination: {
    total: page.total,
    page: page.page,
    limit: page.limit,
    pages: pageCount(page.total, page.limit),
  },
  ...(byCursor && { meta: { pagination: { nextCursor: page.nextCursor } } }),
});
