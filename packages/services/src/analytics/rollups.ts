import { analyticsDaily, sql } from '@chorus/db';
import type { TrackedEventType } from '@chorus/validators';
import type { Tx } from '../posts/tx';
import { utcDay } from './records';

/** What moves one daily count: a row recorded (count > 0) or a sync's figure revised (±). */
export interface RollupChange {
  occurredAt: Date;
  type: TrackedEventType;
  contentId: string | null;
  integrationId: string | null;
  count: number;
}

/**
 * Adds changes to the daily counts, in the caller's transaction: one upsert per distinct
 * (day, type, post, platform), taken in a fixed order so that concurrent batches touching the
 * same days lock their rows in the same order (no deadlock).
 */
export async function addToRollups(tx: Tx, accountId: string, changes: RollupChange[]) {
  const sums = new Map<string, { key: string[]; count: number }>();
  for (const change of changes) {
    const key = [
      utcDay(change.occurredAt),
      change.type,
      change.contentId ?? '',
      change.integrationId ?? '',
    ];
    const id = JSON.stringify(key);
    const entry = sums.get(id) ?? { key, count: 0 };
    entry.count += change.count;
    sums.set(id, entry);
  }
  const rows = [...sums.entries()]
    .filter(([, entry]) => entry.count !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { key, count }]) => ({
      accountId,
      day: key[0] as string,
      type: key[1] as TrackedEventType,
      contentId: key[2] || null,
      integrationId: key[3] || null,
      count,
    }));
  if (rows.length === 0) return;
  await tx
    .insert(analyticsDaily)
    .values(rows)
    .onConflictDoUpdate({
      target: [
        analyticsDaily.accountId,
        analyticsDaily.day,
        analyticsDaily.type,
        analyticsDaily.contentId,
        analyticsDaily.integrationId,
      ],
      set: { count: sql`${analyticsDaily.count} + excluded.count` },
    });
}
