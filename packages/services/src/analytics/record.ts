import type { Principal } from '@chorus/auth';
import { and, eq, inArray, MAX_DAILY_COUNT, posts, sql, type Db } from '@chorus/db';
import type { TrackedEvent, TrackedEventInput } from '@chorus/validators';
import { AppError } from '../shared/errors';
import { newId } from '../shared/ids';
import { findEntry } from '../integrations/catalogue';
import { jsonRecords } from '../shared/bulk';
import { isPastDailyCap, rollupUpserts } from './rollups';

interface Issue {
  path: string;
  message: string;
}

/**
 * The references of a batch, checked all at once: every `contentId` must be a post of the
 * account (another account's is as unknown as a missing one) and every `integrationId` an
 * integration of the catalogue. Answers one issue per bad item.
 */
async function referenceIssues(db: Db, accountId: string, events: TrackedEventInput[]) {
  const named = [...new Set(events.flatMap((e) => (e.contentId ? [e.contentId] : [])))];
  const known = new Set(
    named.length === 0
      ? []
      : (
          await db
            .select({ id: posts.id })
            .from(posts)
            .where(and(eq(posts.accountId, accountId), inArray(posts.id, named)))
        ).map((row) => row.id),
  );
  const issues: Issue[] = [];
  events.forEach((event, i) => {
    if (event.contentId && !known.has(event.contentId)) {
      issues.push({ path: `events[${i}].contentId`, message: 'No such post in this account.' });
    }
    if (event.integrationId && !findEntry(event.integrationId)) {
      issues.push({ path: `events[${i}].integrationId`, message: 'No such integration.' });
    }
  });
  return issues;
}

/** A tracked event as the API returns it, read back as columns (the JSON keys name them). */
const EVENT_COLUMNS = {
  id: 'text',
  type: 'tracked_event_type',
  contentId: 'text',
  integrationId: 'text',
  occurredAt: 'timestamptz',
  properties: 'jsonb',
  count: 'bigint',
  createdAt: 'timestamptz',
} as const;

/**
 * Records a batch of tracked events (docs/analytics.md) with their daily counts in one
 * transaction: every event or none (a bad item is a 400 naming its index). A batch that would
 * take a daily count past MAX_DAILY_COUNT is refused whole, 400 on `events`.
 */
export async function recordTrackedEvents(opts: {
  db: Db;
  principal: Principal;
  events: TrackedEventInput[];
}): Promise<TrackedEvent[]> {
  const { db, principal, events } = opts;
  const issues = await referenceIssues(db, principal.accountId, events);
  if (issues.length > 0) {
    throw new AppError('validation_error', 'The request is not valid.', { issues });
  }
  const now = new Date().toISOString();
  const recorded: TrackedEvent[] = events.map((event) => ({
    id: newId('aev'),
    type: event.type,
    contentId: event.contentId ?? null,
    integrationId: event.integrationId ?? null,
    occurredAt: event.occurredAt ? new Date(event.occurredAt).toISOString() : now,
    count: event.count,
    properties: event.properties,
    createdAt: now,
  }));
  // The answer itself travels as the rows: one statement, so one transaction, writes the
  // events and their daily counts, or nothing.
  await db
    .execute(
      sql`
    with batch as (select * from ${jsonRecords('b', EVENT_COLUMNS, recorded)}),
    inserted as (
      insert into tracked_events
        (id, account_id, type, content_id, integration_id, occurred_at, properties, count, created_at)
      select id, ${principal.accountId}, type, "contentId", "integrationId", "occurredAt",
             properties, count, "createdAt"
      from batch),
    changes as (
      select "occurredAt" as occurred_at, type, "contentId" as content_id,
             "integrationId" as integration_id, count
      from batch),
    ${rollupUpserts(principal.accountId)}
    select 1`,
    )
    .catch((error: unknown) => {
      if (!isPastDailyCap(error)) throw error;
      const message = `Would take a daily count (one type, day, post and platform) past ${MAX_DAILY_COUNT.toLocaleString('en')}, the most one may hold.`;
      throw new AppError('validation_error', 'The request is not valid.', {
        issues: [{ path: 'events', message }],
      });
    });
  return recorded;
}
