import type { trackedEvents } from '@chorus/db';
import type { TrackedEvent } from '@chorus/validators';

export type TrackedEventRow = typeof trackedEvents.$inferSelect;

/** A tracked event as the API returns it (docs/analytics.md). */
export const toTrackedEvent = (row: TrackedEventRow): TrackedEvent => ({
  id: row.id,
  type: row.type,
  contentId: row.contentId,
  integrationId: row.integrationId,
  occurredAt: row.occurredAt.toISOString(),
  count: row.count,
  properties: row.properties,
  createdAt: row.createdAt.toISOString(),
});

/** The UTC day of an instant, as `YYYY-MM-DD`. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
