import {
  ENGAGEMENT_TYPES,
  TRACKED_EVENT_TYPES,
  type AnalyticsTotals,
  type Stats,
} from '@chorus/validators';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { EmptyState } from '~/components/empty-state';
import { count, percent } from '~/components/format';
import { DataTable } from '~/components/data-table';
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

type TotalsRow = { key: string; name: string; totals: AnalyticsTotals };

/** One row per day or platform: its name, then a column per event type. */
function TotalsTable(props: {
  label: string;
  heading: string;
  rows: TotalsRow[];
  empty?: ReactNode;
}) {
  return (
    <DataTable
      label={props.label}
      rows={props.rows}
      rowKey={(row) => row.key}
      empty={props.empty}
      columns={[
        { header: props.heading, rowHeader: true, cell: (row) => row.name },
        ...TRACKED_EVENT_TYPES.map((type) => ({
          header: LABELS[type],
          cell: (row: TotalsRow) => count(row.totals[type]),
        })),
      ]}
    />
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
        <TotalsTable
          label="Figures by platform"
          heading="Platform"
          rows={stats.byPlatform.map((p) => ({
            key: p.integrationId,
            name: names.get(p.integrationId) ?? p.integrationId,
            totals: p.totals,
          }))}
          empty={<p className="muted">No event in this range names a platform.</p>}
        />
      </section>
      {topContent && (
        <section className="panel" aria-labelledby="top-heading">
          <h2 id="top-heading">Top posts</h2>
          <DataTable
            label="Top posts"
            rows={stats.topContent}
            rowKey={(post) => post.contentId}
            empty={<p className="muted">No post had engagement in this range.</p>}
            columns={[
              {
                header: 'Post',
                rowHeader: true,
                className: 'title',
                cell: (post) => (
                  <Link href={`/dashboard/analytics/posts/${post.contentId}?${query}`}>
                    {post.title}
                  </Link>
                ),
              },
              { header: 'Impressions', cell: (post) => count(post.totals.impression) },
              { header: 'Engagements', cell: (post) => count(engagements(post.totals)) },
              { header: 'Engagement rate', cell: (post) => percent(post.engagementRate) },
            ]}
          />
        </section>
      )}
    </>
  );
}
