import Link from 'next/link';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';

export const dynamic = 'force-dynamic';

type Summary = { label: string; value: string; href: string; detail: string };

/**
 * What an admin reads at a glance. Only what exists today: posts by status, the next scheduled
 * posts, engagement and failing webhooks join this list as their APIs land.
 */
export default async function DashboardHome() {
  const principal = await requirePrincipal('/dashboard');
  const caller = await dashboardCaller('/dashboard');
  // One query after another: the embedded database's socket refuses pipelined statements.
  const connected = await caller.integrations.connected({});
  const catalogue = await caller.integrations.list({ status: 'active' });
  const summaries: Summary[] = [
    {
      label: 'Connected platforms',
      value: String(connected.data.length),
      href: '/dashboard/integrations',
      detail: `of ${catalogue.data.length} available`,
    },
  ];
  if (principal.role === 'admin') {
    const all = await caller.users.list({ page: 1, limit: 1 });
    const admins = await caller.users.list({ page: 1, limit: 1, role: 'admin' });
    summaries.unshift({
      label: 'Users',
      value: String(all.pagination.total),
      href: '/dashboard/users',
      detail: `${admins.pagination.total} admin${admins.pagination.total === 1 ? '' : 's'}`,
    });
  }
  const names = new Map(catalogue.data.map((entry) => [entry.id, entry.name]));
  return (
    <>
      <h1>Home</h1>
      <p className="lead">This account at a glance.</p>
      <ul className="stats" aria-label="Summary">
        {summaries.map((s) => (
          <li key={s.label}>
            <Link href={s.href} className="card stat">
              <span className="muted">{s.label}</span>
              <strong>{s.value}</strong>
              <span className="muted small">{s.detail}</span>
            </Link>
          </li>
        ))}
      </ul>
      <section className="panel">
        <h2>Platforms</h2>
        {connected.data.length === 0 ? (
          <p className="muted">
            None connected. <Link href="/dashboard/integrations">Connect a platform</Link>.
          </p>
        ) : (
          <ul className="plain">
            {connected.data.map((c) => (
              <li key={c.integrationId}>
                {names.get(c.integrationId) ?? c.integrationId}
                {c.meta.accountName && <span className="muted"> · {c.meta.accountName}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
