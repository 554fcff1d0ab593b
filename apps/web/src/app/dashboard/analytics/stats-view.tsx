import {
  ENGAGEMENT_TYPES,
  TRACKED_EVENT_TYPES,
  type AnalyticsTotals,
  type Stats,
} from '@chorus/validators';
import Link from 'next/link';
import { EmptyState } from '~/components/empty-state';
import { count, percent } from '~/components/format';
import { TableScroll } from '~/components/table-scroll';
import { DailyChart, type ChartDay } from './daily-chart';

const LABELS: Record<keyof AnalyticsTotals, string> = {
  impression: 'Impressions',
  view: 'Views',
  click: 'Clicks',
  like: 'Likes',
  share: 'Shares',
  comment: 'Comments',
  follow: 'Follows',
};

/** What the engagement rate counts (docs/analytics.md), per day for the chart. */
const engagements = (totals: AnalyticsTotals) =>
  ENGAGEMENT_TYPES.reduce((sum, type) => sum + totals[type], 0);

/** One row per day or platform: its name, then a column per event type. */
function TotalsTable(props: {
  label: string;
  heading: string;
  rows: { key: string; name: string; totals: AnalyticsTotals }[];
}) {
  return (
    <TableScroll label={props.label}>
      <table>
        <thead>
          <tr>
            <th scope="col">{props.heading}</th>
            {TRACKED_EVENT_TYPES.map((type) => (
              <th key={type} scope="col">
                {LABELS[type]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.name}</th>
              {TRACKED_EVENT_TYPES.map((type) => (
                <td key={type}>{count(row.totals[type])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

type Props = {
  stats: Stats;
  /** Platform names by integration id. */
  names: Map<string, string>;
  /** The account's page lists its top posts, each linking to its own figures. */
  topContent?: boolean;
};

/** Totals, engagement rate, the daily chart (and its table), platforms and top posts. */
export function StatsView({ stats, names, topContent }: Props) {
  const days: ChartDay[] = stats.daily.map((d) => ({
    date: d.date,
    impressions: d.totals.impression,
    views: d.totals.view,
    engagements: engagements(d.totals),
  }));
  const busiest = days.reduce<ChartDay | undefined>(
    (best, d) => (!best || d.impressions > best.impressions ? d : best),
    undefined,
  );
  const summary =
    `Daily impressions, views and engagements from ${stats.from} to ${stats.to}: ` +
    `${count(stats.totals.impression)} impressions in all` +
    (busiest && busiest.impressions > 0
      ? `, the most (${count(busiest.impressions)}) on ${busiest.date}.`
      : '.');
  const query = `from=${stats.from}&to=${stats.to}`;
  const empty = TRACKED_EVENT_TYPES.every((type) => stats.totals[type] === 0);
  return (
    <>
      <ul className="stats" aria-label="Totals">
        <li className="card stat">
          <span className="muted">Engagement rate</span>
          <strong>{percent(stats.engagementRate)}</strong>
          <span className="muted small">likes, shares, comments and clicks per impression</span>
        </li>
        {TRACKED_EVENT_TYPES.map((type) => (
          <li key={type} className="card stat">
            <span className="muted">{LABELS[type]}</span>
            <strong>{count(stats.totals[type])}</strong>
          </li>
        ))}
      </ul>
      <section className="panel" aria-labelledby="daily-heading">
        <h2 id="daily-heading">Day by day</h2>
        {empty ? (
          <EmptyState title="No events in this range">
            Events recorded through the API (<code>POST /api/analytics/events</code>) or by platform
            syncs show here.
          </EmptyState>
        ) : (
          <>
            <DailyChart days={days} summary={summary} />
            <details>
              <summary>The daily figures as a table</summary>
              <TotalsTable
                label="Daily figures"
                heading="Day (UTC)"
                rows={stats.daily.map((d) => ({ key: d.date, name: d.date, totals: d.totals }))}
              />
            </details>
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="platforms-heading">
        <h2 id="platforms-heading">By platform</h2>
        {stats.byPlatform.length === 0 ? (
          <p className="muted">No event in this range names a platform.</p>
        ) : (
          <TotalsTable
            label="Figures by platform"
            heading="Platform"
            rows={stats.byPlatform.map((p) => ({
              key: p.integrationId,
              name: names.get(p.integrationId) ?? p.integrationId,
              totals: p.totals,
            }))}
          />
        )}
      </section>
      {topContent && (
        <section className="panel" aria-labelledby="top-heading">
          <h2 id="top-heading">Top posts</h2>
          {stats.topContent.length === 0 ? (
            <p className="muted">No post had engagement in this range.</p>
          ) : (
            <TableScroll label="Top posts">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Post</th>
                    <th scope="col">Impressions</th>
                    <th scope="col">Engagements</th>
                    <th scope="col">Engagement rate</th>
                  </tr>
                </thead>
                <tbody>
                  {stats.topContent.map((post) => (
                    <tr key={post.contentId}>
                      <th scope="row">
                        <Link href={`/dashboard/analytics/posts/${post.contentId}?${query}`}>
                          {post.title}
                        </Link>
                      </th>
                      <td>{count(post.totals.impression)}</td>
                      <td>{count(engagements(post.totals))}</td>
                      <td>{percent(post.engagementRate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
      )}
    </>
  );
}
