import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, unstable_rethrow } from 'next/navigation';
import { cache } from 'react';
import { dashboardCaller } from '~/server/dashboard';
import { formError } from '~/server/form-errors';
import type { SearchParams } from '~/server/search-params';
import { RangePicker } from '../../range-picker';
import { rangeOf } from '../../range';
import { StatsView } from '../../stats-view';

export const dynamic = 'force-dynamic';

type Params = Promise<{ id: string }>;
type Search = Promise<SearchParams>;

const pathOf = (id: string) => `/dashboard/analytics/posts/${id}`;

/**
 * The post's figures and the platforms' names, read once per request: the page's title names
 * the post too. One query after another: the embedded database's socket refuses pipelined
 * statements.
 */
const figures = cache(async (id: string, from: string, to: string) => {
  const caller = await dashboardCaller(pathOf(id));
  const stats = await caller.analytics.content({
    id,
    from: from || undefined,
    to: to || undefined,
  });
  const catalogue = await caller.integrations.list({});
  return {
    stats: stats.data,
    names: new Map(catalogue.data.map((entry) => [entry.id, entry.name])),
  };
});

export async function generateMetadata(props: {
  params: Params;
  searchParams: Search;
}): Promise<Metadata> {
  const { id } = await props.params;
  const range = rangeOf(await props.searchParams);
  // The page itself answers a failure (sign in, not found, a bad range).
  const stats = await figures(id, range.from, range.to).catch(() => undefined);
  return { title: `${stats?.stats.topContent[0]?.title ?? 'Post analytics'} · Analytics` };
}

/** One post's figures, over the range chosen on the account's page (or its own picker). */
export default async function PostAnalyticsPage(props: { params: Params; searchParams: Search }) {
  const { id } = await props.params;
  const range = rangeOf(await props.searchParams);
  const path = pathOf(id);
  const answer = await figures(id, range.from, range.to).then(
    ({ stats, names }) => ({ stats, names, error: undefined }),
    (error: unknown) => {
      unstable_rethrow(error); // signed out: to sign in
      if ((error as { code?: string }).code === 'NOT_FOUND') notFound();
      return { stats: undefined, names: undefined, error: formError(error) };
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
      {answer.stats && <StatsView stats={answer.stats} names={answer.names} />}
    </>
  );
}
