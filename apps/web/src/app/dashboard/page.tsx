import type { Metadata } from 'next';
import { ENGAGEMENT_TYPES, POST_STATUSES } from '@chorus/validators';
import { z } from 'zod';
import { count, percent } from '~/components/format';
import { accountZone } from '~/server/account-zone';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { lastDays } from './analytics/range';
import { publishingTrouble } from './posts/trouble';
import {
  AttentionPanel,
  PlatformsPanel,
  PostsPanel,
  SummaryCards,
  type Summary,
} from './home-panels';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Home' };

/** Pages that send someone home when their role may not open them, so that home says why. */
const SEARCH = { refused: searchField.oneOf(z.enum(['users'])) };

/**
 * What an admin reads at a glance, each figure from the procedure its own page uses; a `user`
 * sees the same less what only admins may read (the users list).
 */
export default async function DashboardHome(props: { searchParams: Promise<SearchParams> }) {
  const { refused } = parseSearch(await props.searchParams, SEARCH);
  const principal = await requirePrincipal('/dashboard');
  const caller = await dashboardCaller('/dashboard');
  // One query after another: the embedded database's socket refuses pipelined statements.
  const connected = await caller.integrations.connected({});
  const catalogue = await caller.integrations.list({ status: 'active' });
  const byStatus = [];
  for (const status of POST_STATUSES) {
    const list = await caller.posts.list({ status, limit: 1 });
    byStatus.push({ status, total: list.meta.pagination.total });
  }
  const next = await caller.posts.list({ status: 'scheduled', sort: 'scheduledAt', limit: 5 });
  const zone = await accountZone(caller);
  const trouble = await publishingTrouble(caller);
  const week = await caller.analytics.stats(lastDays(7));
  // Every endpoint of a normal account fits in the largest page.
  const hooks = await caller.webhooks.list({ limit: 100 });
  const disabled = hooks.data.filter((hook) => !hook.active);
  const engagements = ENGAGEMENT_TYPES.reduce((sum, type) => sum + week.data.totals[type], 0);
  const summaries: Summary[] = [
    {
      label: 'Connected platforms',
      value: count(connected.data.length),
      href: '/dashboard/integrations',
      detail: `of ${catalogue.data.length} available`,
    },
    {
      label: 'Posts',
      value: count(byStatus.reduce((sum, s) => sum + s.total, 0)),
      href: '/dashboard/posts',
      detail: `${count(byStatus.find((s) => s.status === 'scheduled')?.total ?? 0)} scheduled`,
    },
    {
      label: 'Channels needing attention',
      value: count(trouble.failed + trouble.unconfirmed),
      href: '/dashboard/posts?status=failed',
      detail: `${count(trouble.failed)} failed, ${count(trouble.unconfirmed)} unconfirmed`,
    },
    {
      label: 'Engagement, last 7 days',
      value: percent(week.data.engagementRate),
      href: '/dashboard/analytics?days=7',
      detail: `${count(engagements)} engagements, ${count(week.data.totals.impression)} impressions`,
    },
    {
      label: 'Webhooks',
      value: count(hooks.meta.pagination.total),
      href: '/dashboard/webhooks',
      detail: disabled.length ? `${disabled.length} disabled` : 'all active',
    },
  ];
  if (principal.role === 'admin') {
    const all = await caller.users.list({ page: 1, limit: 1 });
    const admins = await caller.users.list({ page: 1, limit: 1, role: 'admin' });
    summaries.unshift({
      label: 'Users',
      value: count(all.pagination.total),
      href: '/dashboard/users',
      detail: `${admins.pagination.total} admin${admins.pagination.total === 1 ? '' : 's'}`,
    });
  }
  const names = new Map(catalogue.data.map((entry) => [entry.id, entry.name]));
  return (
    <>
      <h1>Home</h1>
      <p className="lead">This account at a glance.</p>
      {refused === 'users' && (
        <p className="notice error" role="alert">
          Users is for admins: ask an admin of this account to add, change or remove users.
        </p>
      )}
      <SummaryCards summaries={summaries} />
      <div className="grid-2">
        <PostsPanel byStatus={byStatus} next={next.data} zone={zone} />
        <AttentionPanel disabled={disabled} />
      </div>
      <PlatformsPanel connected={connected.data} names={names} />
    </>
  );
}
