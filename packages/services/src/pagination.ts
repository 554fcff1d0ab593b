import type { Pagination } from '@chorus/validators';

export interface PageRequest {
  page: number;
  limit: number;
}

export const pageOffset = ({ page, limit }: PageRequest) => (page - 1) * limit;

export const pageCount = (total: number, limit: number) => Math.ceil(total / limit);

/** One page of a table-B list, in the general envelope's terms (decisions §5). */
export const pageOf = <T>(items: T[], total: number, request: PageRequest) => ({
  items,
  pagination: {
    total,
    count: items.length,
    perPage: request.limit,
    currentPage: request.page,
    totalPages: pageCount(total, request.limit),
  } satisfies Pagination,
});
