import type { Principal } from '@chorus/auth';
import { and, eq, inArray, posts, type Db } from '@chorus/db';
import type { TrackedEvent, TrackedEventInput } from '@chorus/validators';
import { AppError } from '../errors';
import { newId } from '../ids';
import { findEntry } from '../integrations/catalogue';
import { unnestInsert } from '../bulk';
import { toTrackedEvent } from './records';
import { addToRollups } from './rollups';

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
      issues.push({ path: `events.${i}.contentId`, message: 'No such post in this account.' });
    }
    if (event.integrationId && !findEntry(event.integrationId)) {
      issues.push({ path: `events.${i}.integrationId`, message: 'No such integration.' });
    }
  });
  return issues;
}

const COLUMNS = [
  'id',
  'account_id',
  'type',
  'content_id',
  'integration_id',
  'occurred_at',
  'properties',
  'count',
  'created_at',
] as const;
const TYPES = [
  'text',
  'text',
  'tracked_event_type',
  'text',
  'text',
  'timestamptz',
  'jsonb',
  'int',
  'timestamptz',
];

/**
 * Records a batch of tracked events (decisions §12) with their daily counts in one
 * transaction: every event or none (a bad item is a 400 naming its index).
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
  const now = new Date();
  const rows = events.map((event) => ({
    id: newId('aev'),
    accountId: principal.accountId,
    type: event.type,
    contentId: event.contentId ?? null,
    integrationId: event.integrationId ?? null,
    occurredAt: event.occurredAt ? new Date(event.occurredAt) : now,
    count: event.count,
    properties: event.properties,
    createdAt: now,
  }));
  await db.transaction(async (tx) => {
    await tx.execute(
      unnestInsert(
        'tracked_events',
        COLUMNS,
        TYPES,
        rows.map((r) => [
          r.id,
          r.accountId,
          r.type,
          r.contentId,
          r.integrationId,
          r.occurredAt.toISOString(),
          JSON.stringify(r.properties),
          r.count,
          r.createdAt.toISOString(),
        ]),
      ),
    );
    await addToRollups(tx, principal.accountId, rows);
  });
  return rows.map((row) => toTrackedEvent({ ...row, syncKey: null }));
}
