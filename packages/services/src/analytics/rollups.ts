import { brokenCheck, sql, type SQL } from '@chorus/db';
import { TRACKED_EVENT_TYPES, type TrackedEventType } from '@chorus/validators';
import type { Tx } from '../posts/tx';
import { jsonRecords } from '../shared/bulk';

/** What moves the daily counts: a row recorded (count > 0) or a sync's figure revised (±). */
export interface RollupChange {
  occurredAt: Date;
  type: TrackedEventType;
  contentId: string | null;
  integrationId: string | null;
  count: number;
}

/** The columns of a `changes` relation, which `rollupUpserts` reads. */
const CHANGE_COLUMNS = {
  occurred_at: 'timestamptz',
  type: 'tracked_event_type',
  content_id: 'text',
  integration_id: 'text',
  count: 'bigint',
} as const;

/** The three grains of daily counts (schema/analytics.ts): table and key columns. */
const GRAINS = [
  { table: 'analytics_daily', key: ['content_id', 'day', 'integration_id'] },
  { table: 'analytics_daily_by_platform', key: ['day', 'integration_id'] },
  { table: 'analytics_daily_by_content', key: ['day', 'content_id'] },
] as const;

const KEY_EXPRESSIONS = {
  day: `(occurred_at at time zone 'UTC')::date`,
  content_id: 'content_id',
  integration_id: 'integration_id',
};

const COUNT_COLUMNS = TRACKED_EVENT_TYPES.map((type) => `"${type}"`).join(', ');
/** One sum per type column, from the rows of that type. */
const SUMS = TRACKED_EVENT_TYPES.map(
  (type) => `coalesce(sum(count) filter (where type = '${type}'), 0)`,
).join(', ');
/** `"like" = t."like" + excluded."like"`, … for every type column. */
const ADD_EXCLUDED = TRACKED_EVENT_TYPES.map(
  (type) => `"${type}" = t."${type}" + excluded."${type}"`,
).join(', ');

/**
 * `rollup_0 as (…), rollup_1 as (…), rollup_2 as (…)`: common table expressions that add the
 * rows of the relation `changes` (CHANGE_COLUMNS) to every grain of daily counts, one upsert
 * per grain, summed per key by PostgreSQL. Each upsert's rows are sorted by key and the grains
 * always run in the same order, so concurrent batches lock the rows they share in one order
 * (no deadlock).
 */
export function rollupUpserts(accountId: string): SQL {
  const upserts = GRAINS.map(({ table, key }, i) => {
    const keys = key.join(', ');
    const expressions = key.map((column) => KEY_EXPRESSIONS[column]).join(', ');
    // The by-content grain has no row for events without a post.
    const filter = table === 'analytics_daily_by_content' ? 'where content_id is not null' : '';
    return sql`${sql.raw(`rollup_${i}`)} as (
      insert into ${sql.raw(table)} as t (account_id, ${sql.raw(keys)}, ${sql.raw(COUNT_COLUMNS)})
      select ${accountId}, ${sql.raw(`${expressions}, ${SUMS}`)}
      from changes ${sql.raw(filter)}
      group by ${sql.raw(expressions)} order by ${sql.raw(expressions)}
      on conflict (account_id, ${sql.raw(keys)}) do update set ${sql.raw(ADD_EXCLUDED)})`;
  });
  return sql.join(upserts, sql`, `);
}

/** True when `error` is a daily count refused for passing MAX_DAILY_COUNT (any grain). */
export const isPastDailyCap = (error: unknown) =>
  GRAINS.some(({ table }) => brokenCheck(error) === `${table}_cap`);

/** Adds changes to every grain of daily counts in the caller's transaction (one statement). */
export async function addToRollups(tx: Tx, accountId: string, changes: RollupChange[]) {
  if (changes.length === 0) return;
  const rows = changes.map((change) => ({
    occurred_at: change.occurredAt,
    type: change.type,
    content_id: change.contentId,
    integration_id: change.integrationId,
    count: change.count,
  }));
  await tx.execute(sql`
    with changes as (select * from ${jsonRecords('c', CHANGE_COLUMNS, rows)}),
    ${rollupUpserts(accountId)}
    select 1`);
}
