import { field, trackedEvents, type RowOf } from '@chorus/db';
import type { TrackedEvent } from '@chorus/validators';

/** A tracked event's columns the API shows, as the row reader gives them. */
export const trackedEventFields = {
  id: field.column(trackedEvents.id),
  type: field.column(trackedEvents.type),
  contentId: field.column(trackedEvents.contentId),
  integrationId: field.column(trackedEvents.integrationId),
  occurredAt: field.timestamp(trackedEvents.occurredAt),
  count: field.bigint(trackedEvents.count),
  properties: field.column(trackedEvents.properties),
  createdAt: field.timestamp(trackedEvents.createdAt),
};

/** A tracked event as the API returns it (docs/analytics.md). */
export const toTrackedEvent = (row: RowOf<typeof trackedEventFields>): TrackedEvent => ({
  id: row.id,
  type: row.type,
  contentId: row.contentId,
  integrationId: row.integrationId,
  occurredAt: row.occurredAt,
  count: row.count,
  properties: row.properties,
  createdAt: row.createdAt,
});

/** The UTC day of an instant, as `YYYY-MM-DD`. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
