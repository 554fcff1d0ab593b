import type { Pagination } from '@chorus/validators';

/** `{ success: true, data }`: the general envelope of table-B endpoints (decisions §5). */
export const ok = <T>(data: T) => ({ success: true as const, data });

/** A page of a table-B list in the general envelope. */
export const okPage = <T>({ items, pagination }: { items: T[]; pagination: Pagination }) => ({
  success: true as const,
  data: items,
  meta: { pagination },
});
