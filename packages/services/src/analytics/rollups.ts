import { sql } from '@chorus/db';
import {
  TRACKED_EVENT_TYPES,
  type AnalyticsTotals,
  type TrackedEventType,
} from '@chorus/validators';
import type { Tx } from '../posts/tx';
import { unnestInsert } from '../bulk';
import { utcDay } from './records';

/** What moves the daily counts: a row recorded (count > 0) or a sync's figure revised (±). */
export interface RollupChange {
  occurredAt: Date;
  type: TrackedEventType;
  contentId: string | null;
  integrationId: string | null;
  count: number;
}

/** The three grains of daily counts (schema/analytics.ts): table and key columns. */
const GRAINS = [
  { table: 'analytics_daily', key: ['content_id', 'day', 'integration_id'] },
  { table: 'analytics_daily_by_platform', key: ['day', 'integration_id'] },
  { table: 'analytics_daily_by_content', key: ['day', 'content_id'] },
] as const;

type KeyColumn = 'day' | 'content_id' | 'integration_id';

/** `"like" = t."like" + excluded."like"`, … for every type column. */
const ADD_EXCLUDED = sql.raw(
  TRACKED_EVENT_TYPES.map((type) => `"${type}" = t."${type}" + excluded."${type}"`).join(', '),
);

/**
 * Adds changes to every grain of daily counts in the caller's transaction: one upsert per
 * grain, its rows summed per key and sorted, so that concurrent batches lock the rows they
 * share in the same order (no deadlock).
 */
export async function addToRollups(tx: Tx, accountId: string, changes: RollupChange[]) {
  const keyed = changes.map((change) => ({
    change,
    values: {
      day: utcDay(change.occurredAt),
      content_id: change.contentId,
      integration_id: change.integrationId,
    } as Record<KeyColumn, string | null>,
  }));
  for (const { table, key } of GRAINS) {
    const sums = new Map<string, { key: (string | null)[]; counts: AnalyticsTotals }>();
    for (const { change, values } of keyed) {
      // The by-content grain has no row for events without a post.
      if (table === 'analytics_daily_by_content' && change.contentId === null) continue;
      const keyValues = key.map((column) => values[column]);
      const id = JSON.stringify(keyValues);
      let entry = sums.get(id);
      if (!entry) {
        const counts = Object.fromEntries(
          TRACKED_EVENT_TYPES.map((t) => [t, 0]),
        ) as AnalyticsTotals;
        entry = { key: keyValues, counts };
        sums.set(id, entry);
      }
      entry.counts[change.type] += change.count;
    }
    if (sums.size === 0) continue;
    const rows = [...sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, entry]) => [
        accountId,
        ...entry.key,
        ...TRACKED_EVENT_TYPES.map((t) => entry.counts[t]),
      ]);
    const columns = ['account_id', ...key, ...TRACKED_EVENT_TYPES];
    const types = columns.map((c) =>
      c === 'day' ? 'date' : TRACKED_EVENT_TYPES.includes(c as TrackedEventType) ? 'int' : 'text',
    );
    const conflict = sql.raw(['account_id', ...key].map((c) => `"${c}"`).join(', '));
    await tx.execute(
      sql`${unnestInsert(table, columns, types, rows, 't')} on conflict (${conflict}) do update set ${ADD_EXCLUDED}`,
    );
  }
}
