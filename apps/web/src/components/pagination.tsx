import Link from 'next/link';

/** Where a page of a list stands: the page the procedures answered, in either envelope. */
export type ListPage = { page: number; pages: number; total: number };

/** The general envelope's `meta.pagination` (docs/api.md), as a ListPage. */
export const envelopePage = (pagination: {
  currentPage: number;
  totalPages: number;
  total: number;
}): ListPage => ({
  page: pagination.currentPage,
  pages: pagination.totalPages,
  total: pagination.total,
});

type PaginationProps = {
  at: ListPage;
  /** The page's URL with every other parameter kept. */
  href: (page: number) => string;
};

/** Previous / next links and where we are; nothing when everything fits on one page. */
export function Pagination({ at: { page, pages, total }, href }: PaginationProps) {
  if (pages <= 1) return <p className="muted small">{total} in all</p>;
  return (
    <nav className="pagination" aria-label="Pagination">
      {page > 1 ? <Link href={href(page - 1)}>← Previous</Link> : <span />}
      <span className="muted">
        Page {Math.min(page, pages)} of {pages} · {total} in all
      </span>
      {page < pages ? <Link href={href(page + 1)}>Next →</Link> : <span />}
    </nav>
  );
}
