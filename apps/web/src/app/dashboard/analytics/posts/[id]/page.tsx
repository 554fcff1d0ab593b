import Link from 'next/link';
import { notFound } from 'next/navigation';
import { dashboardCaller } from '~/server/dashboard';
import { formError } from '~/server/form-errors';
import type { SearchParams } from '~/server/search-params';
import { RangePicker } from '../../range-picker';
import { rangeOf } from '../../range';
import { StatsView } from '../../stats-view';

export const dynamic = 'force-dynamic';

type Params = Promise<{ id: string }>;
type Search = Promise<SearchParams>;

/** One post's figures, over the range chosen on the account's page (or its own picker). */
export default async function PostAnalyticsPage(props: { params: Params; searchParams: Search }) {
  const { id } = await props.params;
  const range = rangeOf(await props.searchParams);
  const path = `/dashboard/analytics/posts/${id}`;
  const caller = await dashboardCaller(path);
  // One query after another: the embedded database's socket refuses pipelined statements.
  const catalogue = await caller.integrations.list({});
  const names = new Map(catalogue.data.map((entry) => [entry.id, entry.name]));
  const answer = await caller.analytics
    .content({ id, from: range.from || undefined, to: range.to || undefined })
    .then(
      (stats) => ({ stats: stats.data, error: undefined }),
      (error: unknown) => {
        if ((error as { code?: string }).code === 'NOT_FOUND') notFound();
        return { stats: undefined, error: formError(error) };
      },
    );
  const title = answer.stats?.topContent[0]?.title;
  return (
    <>
      <p className="small">
        <Link href={`/dashboard/analytics?from=${range.from}&to=${range.to}`}>← Analytics</Link>
      </p>
      <h1>{title ?? 'Post analytics'}</h1>
      <p className="lead">
        This post&apos;s figures
        {answer.stats && `, from ${answer.stats.from} to ${answer.stats.to} (UTC)`}.
      </p>
      <RangePicker path={path} {...range} error={answer.error} />
      {answer.stats && <StatsView stats={answer.stats} names={names} />}
    </>
  );
}
