/**
 * RFC 8288 `Link: <…>; rel="next"` on a list's answer: the request's own URL with the next
 * page's position, relative (a client resolves it against the URL it asked). A list says where
 * the next page starts with `meta.pagination.nextCursor`; the users list without a cursor says
 * it with its page numbers alone. None on the last page.
 */
type ListAnswer = {
  meta?: { pagination?: { nextCursor?: unknown } };
  pagination?: { page?: unknown; pages?: unknown };
};

export function nextLink(path: string, query: URLSearchParams, output: unknown): string | null {
  if (typeof output !== 'object' || output === null) return null;
  const answer = output as ListAnswer;
  const next = new URLSearchParams(query);
  const cursor = answer.meta?.pagination?.nextCursor;
  const { page, pages } = answer.pagination ?? {};
  if (typeof cursor === 'string') {
    next.delete('page');
    next.set('startingAfter', cursor);
  } else if (cursor === undefined && typeof page === 'number' && typeof pages === 'number') {
    if (page >= pages) return null;
    next.set('page', String(page + 1));
  } else {
    return null;
  }
  return `<${path}?${next.toString()}>; rel="next"`;
}
