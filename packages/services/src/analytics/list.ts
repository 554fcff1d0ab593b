import type { Principal } from '@chorus/auth';
import { and, eq, gte, lte, trackedEvents, type Db } from '@chorus/db';
import type { ListTrackedEventsQuery } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { readTablePage } from '../shared/pagination';
import { toTrackedEvent, trackedEventFields } from './records';

/** The account's tracked events, newest first, filtered by type, content, integration and time. */
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
      issues: [{ path: 'from', message: '`from` must not be after `to`.' }],
    });
  }
  const scope = eq(trackedEvents.accountId, principal.accountId);
  const where = and(
    scope,
    query.type ? eq(trackedEvents.type, query.type) : undefined,
    query.contentId ? eq(trackedEvents.contentId, query.contentId) : undefined,
    query.integrationId ? eq(trackedEvents.integrationId, query.integrationId) : undefined,
    from ? gte(trackedEvents.occurredAt, from) : undefined,
    to ? lte(trackedEvents.occurredAt, to) : undefined,
  );
  return readTablePage({
    db,
    request: { page: query.page, limit: query.limit, startingAfter: query.startingAfter },
    order: {
      table: trackedEvents,
      id: trackedEvents.id,
      by: trackedEvents.createdAt,
      direction: 'desc',
      scope,
    },
    where,
    fields: trackedEventFields,
    items: (rows) => rows.map(toTrackedEvent),
  });
}
