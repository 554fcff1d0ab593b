import type { Metadata } from 'next';
import { dashboardCaller } from '~/server/dashboard';
import { formError } from '~/server/form-errors';
import type { SearchParams } from '~/server/search-params';
import { RangePicker } from './range-picker';
import { rangeOf } from './range';
import { StatsView } from './stats-view';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Analytics' };

const PATH = '/dashboard/analytics';
type Search = Promise<SearchParams>;

export default async function AnalyticsPage({ searchParams }: { searchParams: Search }) {
  const range = rangeOf(await searchParams);
  const caller = await dashboardCaller(PATH);
  // One query after another: the embedded database's socket refuses pipelined statements.
  const catalogue = await caller.integrations.list({});
  const names = new Map(catalogue.data.map((entry) => [entry.id, entry.name]));
  // A custom range the procedure refuses (a bad day, over 366 days) is said beside the picker.
  const answer = await caller.analytics
    .stats({ from: range.from || undefined, to: range.to || undefined })
    .then(
      (stats) => ({ stats: stats.data, error: undefined }),
      (error: unknown) => ({ stats: undefined, error: formError(error) }),
    );
  return (
    <>
      <h1>Analytics</h1>
      <p className="lead">
        How this account&apos;s posts do across platforms
        {answer.stats && `, from ${answer.stats.from} to ${answer.stats.to} (UTC)`}.
      </p>
      <RangePicker path={PATH} {...range} error={answer.error} />
      {answer.stats && <StatsView stats={answer.stats} names={names} topContent />}
    </>
  );
}
