import type { Principal } from '@chorus/auth';
import {
  analyticsDaily,
  analyticsDailyByContent,
  analyticsDailyByPlatform,
  and,
  asc,
  between,
  desc,
  eq,
  isNotNull,
  posts,
  sql,
  type Db,
  type SQL,
} from '@chorus/db';
import {
  ENGAGEMENT_TYPES,
  TRACKED_EVENT_TYPES,
  type AnalyticsTotals,
  type Stats,
  type StatsQuery,
  type TrackedEventType,
} from '@chorus/validators';
import { AppError, notFound } from '../shared/errors';
import { utcDay } from './records';

const DAY_MS = 86_400_000;
/** The longest range, in days, both ends included (docs/analytics.md). */
export const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 30;

const dayMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const addDays = (day: string, days: number) => utcDay(new Date(dayMs(day) + days * DAY_MS));

const invalid = (path: string, message: string) =>
  new AppError('validation_error', 'The request is not valid.', { issues: [{ path, message }] });

/** The first day a date names (docs/api.md: years 0001 to 9999). */
const FIRST_DAY = '0001-01-01';

/**
 * The inclusive UTC days asked for: default the last 30 days up to `to` (those that exist: from
 * year 1); at most 366.
 */
export function statsRange(query: StatsQuery, today = utcDay(new Date())) {
  const to = query.to ?? today;
  const from =
    query.from ??
    utcDay(new Date(Math.max(dayMs(to) - (DEFAULT_RANGE_DAYS - 1) * DAY_MS, dayMs(FIRST_DAY))));
  if (from > to) throw invalid('from', '`from` must not be after `to`.');
  if ((dayMs(to) - dayMs(from)) / DAY_MS + 1 > MAX_RANGE_DAYS) {
    throw invalid('to', `The range must be at most ${MAX_RANGE_DAYS} days.`);
  }
  return { from, to };
}

const zeros = (): AnalyticsTotals =>
  Object.fromEntries(TRACKED_EVENT_TYPES.map((t) => [t, 0])) as AnalyticsTotals;

export const engagementRate = (totals: AnalyticsTotals) =>
  totals.impression === 0
    ? 0
    : ENGAGEMENT_TYPES.reduce((sum, type) => sum + totals[type], 0) / totals.impression;

type RollupTable =
  typeof analyticsDaily | typeof analyticsDailyByPlatform | typeof analyticsDailyByContent;

/** `sum(<type>)` for every type column of a rollup table. */
const sums = (table: RollupTable) =>
  Object.fromEntries(
    TRACKED_EVENT_TYPES.map((type) => [type, sql<number>`sum(${table[type]})`.mapWith(Number)]),
  ) as Record<TrackedEventType, SQL<number>>;

const totalsOf = (row: Record<TrackedEventType, number>): AnalyticsTotals =>
  Object.fromEntries(TRACKED_EVENT_TYPES.map((t) => [t, row[t] ?? 0])) as AnalyticsTotals;

const engagementOf = (table: RollupTable) =>
  sql.join(
    ENGAGEMENT_TYPES.map((type) => sql`sum(${table[type]})`),
    sql` + `,
  );

/** Every day of the range in order, zeros included, and the sum over them. */
function series(
  range: { from: string; to: string },
  rows: { day: string; totals: AnalyticsTotals }[],
) {
  const days = new Map(rows.map((row) => [row.day, row.totals]));
  const totals = zeros();
  const daily: Stats['daily'] = [];
  // Counted, not compared as text: the day after 9999-12-31 prints as +010000-01-01, which
  // sorts before it, and a loop on `day <= to` never ended.
  const count = (dayMs(range.to) - dayMs(range.from)) / DAY_MS + 1;
  for (let i = 0; i < count; i++) {
    const day = addDays(range.from, i);
    const figures = days.get(day) ?? zeros();
    for (const type of TRACKED_EVENT_TYPES) totals[type] += figures[type];
    daily.push({ date: day, totals: figures });
  }
  return { totals, daily };
}

/**
 * The figures of docs/analytics.md read from daily counts only (schema/analytics.ts): a handful of
 * rows per day, so the cost grows with the days (and the posts and platforms active in them),
 * never with the number of events. `table` is the grain with days and platforms: the
 * account's, or one post's.
 */
async function figures(
  db: Db,
  table: typeof analyticsDaily | typeof analyticsDailyByPlatform,
  where: SQL | undefined,
  range: { from: string; to: string },
) {
  const byDay = await db
    .select({ day: table.day, ...sums(table) })
    .from(table)
    .where(where)
    .groupBy(table.day);
  const byPlatform = await db
    .select({ integrationId: table.integrationId, ...sums(table) })
    .from(table)
    .where(and(where, isNotNull(table.integrationId)))
    .groupBy(table.integrationId)
    .orderBy(asc(table.integrationId));
  const { totals, daily } = series(
    range,
    byDay.map((row) => ({ day: row.day, totals: totalsOf(row) })),
  );
  return {
    ...range,
    totals,
    engagementRate: engagementRate(totals),
    daily,
    byPlatform: byPlatform.map((row) => ({
      integrationId: row.integrationId ?? '',
      totals: totalsOf(row),
    })),
  };
}

/** The 10 posts with the most engagement in the range; deleted posts leave the ranking. */
async function topContent(db: Db, accountId: string, range: { from: string; to: string }) {
  const t = analyticsDailyByContent;
  const rows = await db
    .select({ contentId: t.contentId, title: posts.title, ...sums(t) })
    .from(t)
    .innerJoin(posts, and(eq(posts.id, t.contentId), eq(posts.accountId, t.accountId)))
    .where(and(eq(t.accountId, accountId), between(t.day, range.from, range.to)))
    .groupBy(t.contentId, posts.title)
    .orderBy(desc(engagementOf(t)), asc(t.contentId))
    .limit(10);
  return rows.map((row) => {
    const totals = totalsOf(row);
    return {
      contentId: row.contentId,
      title: row.title,
      totals,
      engagementRate: engagementRate(totals),
    };
  });
}

export async function accountStats(opts: { db: Db; principal: Principal; query: StatsQuery }) {
  const { db, principal } = opts;
  const range = statsRange(opts.query);
  const t = analyticsDailyByPlatform;
  const where = and(eq(t.accountId, principal.accountId), between(t.day, range.from, range.to));
  const stats = await figures(db, t, where, range);
  return { ...stats, topContent: await topContent(db, principal.accountId, range) };
}

/** The same figures for one post of the account (404 otherwise); its ranking is itself. */
export async function contentStats(opts: {
  db: Db;
  principal: Principal;
  id: string;
  query: StatsQuery;
}) {
  const { db, principal, id } = opts;
  const range = statsRange(opts.query);
  const [post] = await db
    .select({ id: posts.id, title: posts.title })
    .from(posts)
    .where(and(eq(posts.id, id), eq(posts.accountId, principal.accountId)));
  if (!post) throw notFound('Post');
  const t = analyticsDaily;
  const where = and(
    eq(t.accountId, principal.accountId),
    eq(t.contentId, post.id),
    between(t.day, range.from, range.to),
  );
  const stats = await figures(db, t, where, range);
  const { totals, engagementRate: rate } = stats;
  return {
    ...stats,
    topContent: [{ contentId: post.id, title: post.title, totals, engagementRate: rate }],
  };
}
