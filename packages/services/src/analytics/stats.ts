import type { Principal } from '@chorus/auth';
import {
  analyticsDaily,
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
} from '@chorus/validators';
import { AppError, notFound } from '../errors';
import { utcDay } from './records';

const DAY_MS = 86_400_000;
/** The longest range, in days, both ends included (decisions §12). */
export const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 30;

const dayMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const addDays = (day: string, days: number) => utcDay(new Date(dayMs(day) + days * DAY_MS));

const invalid = (path: string, message: string) =>
  new AppError('validation_error', 'The request is not valid.', { issues: [{ path, message }] });

/** The inclusive UTC days asked for: default the last 30 days; at most 366. */
export function statsRange(query: StatsQuery, today = utcDay(new Date())) {
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (from > to) throw invalid('from', 'from must not be after to.');
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

/** One summed column per type: `sum(count) filter (where type = …)`. */
const perType = Object.fromEntries(
  TRACKED_EVENT_TYPES.map((type) => [
    type,
    sql<number>`coalesce(sum(${analyticsDaily.count}) filter (where ${analyticsDaily.type} = ${type}), 0)`.mapWith(
      Number,
    ),
  ]),
) as Record<keyof AnalyticsTotals, SQL.Aliased<number> | SQL<number>>;

const totalsOf = (row: Record<string, unknown>): AnalyticsTotals =>
  Object.fromEntries(TRACKED_EVENT_TYPES.map((t) => [t, Number(row[t] ?? 0)])) as AnalyticsTotals;

const engagement = sql`(${sql.join(
  ENGAGEMENT_TYPES.map(
    (type) =>
      sql`coalesce(sum(${analyticsDaily.count}) filter (where ${analyticsDaily.type} = ${type}), 0)`,
  ),
  sql` + `,
)})`;

/**
 * The figures of decisions §12 from the daily counts only: their cost grows with the days
 * (and the posts and platforms active in them), never with the number of events.
 */
async function statsOver(
  db: Db,
  accountId: string,
  range: { from: string; to: string },
  contentId?: string,
): Promise<Stats> {
  const where = and(
    eq(analyticsDaily.accountId, accountId),
    between(analyticsDaily.day, range.from, range.to),
    contentId ? eq(analyticsDaily.contentId, contentId) : undefined,
  );
  const byDay = await db
    .select({ day: analyticsDaily.day, ...perType })
    .from(analyticsDaily)
    .where(where)
    .groupBy(analyticsDaily.day);
  const byPlatform = await db
    .select({ integrationId: analyticsDaily.integrationId, ...perType })
    .from(analyticsDaily)
    .where(and(where, isNotNull(analyticsDaily.integrationId)))
    .groupBy(analyticsDaily.integrationId)
    .orderBy(asc(analyticsDaily.integrationId));
  const top = await db
    .select({ contentId: analyticsDaily.contentId, title: posts.title, ...perType })
    .from(analyticsDaily)
    // Deleted posts keep their events but leave the ranking.
    .innerJoin(
      posts,
      and(eq(posts.id, analyticsDaily.contentId), eq(posts.accountId, analyticsDaily.accountId)),
    )
    .where(and(where, isNotNull(analyticsDaily.contentId)))
    .groupBy(analyticsDaily.contentId, posts.title)
    .orderBy(desc(engagement), asc(analyticsDaily.contentId))
    .limit(10);

  const days = new Map(byDay.map((row) => [row.day, totalsOf(row)]));
  const totals = zeros();
  const daily: Stats['daily'] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const figures = days.get(day) ?? zeros();
    for (const type of TRACKED_EVENT_TYPES) totals[type] += figures[type];
    daily.push({ date: day, totals: figures });
  }
  return {
    ...range,
    totals,
    engagementRate: engagementRate(totals),
    daily,
    byPlatform: byPlatform.map((row) => ({
      integrationId: row.integrationId ?? '',
      totals: totalsOf(row),
    })),
    topContent: top.map((row) => {
      const figures = totalsOf(row);
      return {
        contentId: row.contentId ?? '',
        title: row.title,
        totals: figures,
        engagementRate: engagementRate(figures),
      };
    }),
  };
}

export async function accountStats(opts: { db: Db; principal: Principal; query: StatsQuery }) {
  return statsOver(opts.db, opts.principal.accountId, statsRange(opts.query));
}

/** The same figures for one post of the account (404 otherwise). */
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
  const stats = await statsOver(db, principal.accountId, range, post.id);
  const topContent = [
    {
      contentId: post.id,
      title: post.title,
      totals: stats.totals,
      engagementRate: stats.engagementRate,
    },
  ];
  return { ...stats, topContent };
}
