import type { Principal } from '@chorus/auth';
import { and, count, desc, eq, gte, lte, trackedEvents, type Db } from '@chorus/db';
import type { ListTrackedEventsQuery } from '@chorus/validators';
import { AppError } from '../errors';
import { pageOf, pageOffset } from '../pagination';
import { toTrackedEvent } from './records';

/** The account's tracked events, newest first (decisions §4), filtered as §12 lists. */
export async function listTrackedEvents(opts: {
  db: Db;
  principal: Principal;
  query: ListTrackedEventsQuery;
}) {
  const { db, principal, query } = opts;
  // The query's bounds are timestamps: a date was widened to its whole day by the schema.
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from > to) {
    throw new AppError('validation_error', 'The request is not valid.', {
      issues: [{ path: 'from', message: 'from must not be after to.' }],
    });
  }
  const where = and(
    eq(trackedEvents.accountId, principal.accountId),
    query.type ? eq(trackedEvents.type, query.type) : undefined,
    query.contentId ? eq(trackedEvents.contentId, query.contentId) : undefined,
    query.integrationId ? eq(trackedEvents.integrationId, query.integrationId) : undefined,
    from ? gte(trackedEvents.occurredAt, from) : undefined,
    to ? lte(trackedEvents.occurredAt, to) : undefined,
  );
  const page = { page: query.page, limit: query.limit };
  const rows = await db
    .select()
    .from(trackedEvents)
    .where(where)
    .orderBy(desc(trackedEvents.createdAt), desc(trackedEvents.id))
    .limit(page.limit)
    .offset(pageOffset(page));
  const [totals] = await db.select({ total: count() }).from(trackedEvents).where(where);
  return pageOf(rows.map(toTrackedEvent), totals?.total ?? 0, page);
}
