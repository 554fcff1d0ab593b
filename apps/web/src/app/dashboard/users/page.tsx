import type { Metadata } from 'next';
import { ZRole } from '@chorus/validators';
import { redirect } from 'next/navigation';
import { ConfirmAction } from '~/components/confirm-action';
import { DataTable } from '~/components/data-table';
import { EmptyState } from '~/components/empty-state';
import { utcMinute } from '~/components/format';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { deleteUser, turnOffTwoFactor } from './actions';
import { UserDialog } from './user-dialog';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Users' };

const PER_PAGE = 20;
const SEARCH = {
  q: searchField.text(200),
  role: searchField.oneOf(ZRole),
  page: searchField.page,
};

export default async function UsersPage(props: { searchParams: Promise<SearchParams> }) {
  const { q, role, page } = parseSearch(await props.searchParams, SEARCH);
  const caller = await dashboardCaller('/dashboard/users');
  const me = await requirePrincipal('/dashboard/users');
  // Each user in full (the edit form shows the notification setting), in the list's one query.
  const list = await caller.users
    .listInFull({ page, limit: PER_PAGE, q: q || undefined, role })
    .catch((error: unknown) => {
      // Users is an admin page: the procedure refuses anyone else; send them home, which says why.
      if ((error as { code?: string }).code === 'FORBIDDEN') redirect('/dashboard?refused=users');
      throw error;
    });
  const href = (p: number) =>
    `/dashboard/users?${new URLSearchParams({ ...(q && { q }), ...(role && { role }), page: String(p) })}`;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Users</h1>
          <p className="lead">Everyone who signs in to this account, and what they may do.</p>
        </div>
        <UserDialog />
      </div>
      <section className="panel">
        <form className="filters" role="search" action="/dashboard/users">
          <div className="field grow">
            <label htmlFor="user-search">Search</label>
            <input
              id="user-search"
              name="q"
              type="search"
              defaultValue={q}
              placeholder="Name or email"
            />
          </div>
          <div className="field">
            <label htmlFor="user-role">Role</label>
            <select id="user-role" name="role" defaultValue={role ?? ''}>
              <option value="">Any role</option>
              <option value="admin">Admin</option>
              <option value="user">User</option>
            </select>
          </div>
          <button type="submit">Filter</button>
        </form>
        <DataTable
          label="Users"
          rows={list.data}
          rowKey={(user) => user.id}
          empty={
            <EmptyState title={q || role ? 'No user matches' : 'No users yet'}>
              {q || role ? 'Try another search or role.' : 'Create the first one.'}
            </EmptyState>
          }
          columns={[
            {
              header: 'Name',
              cell: (user) => (
                <>
                  {user.name}
                  {user.id === me.userId && <span className="badge">you</span>}
                </>
              ),
            },
            { header: 'Email', cell: (user) => user.email },
            {
              header: 'Role',
              cell: (user) => (
                <span className={user.role === 'admin' ? 'badge on' : 'badge'}>{user.role}</span>
              ),
            },
            {
              header: 'Last sign-in',
              cell: (user) =>
                user.lastLogin ? (
                  <time dateTime={user.lastLogin}>{utcMinute(user.lastLogin)}</time>
                ) : (
                  'never'
                ),
            },
            {
              header: 'Actions',
              hideHeader: true,
              className: 'actions',
              cell: (user) => (
                <>
                  <UserDialog user={user} self={user.id === me.userId} />
                  {user.settings.twoFactorAuth && user.id !== me.userId && (
                    <ConfirmAction
                      button="Turn off two-factor"
                      label={`Turn off two-factor for ${user.name}`}
                      title={`Turn off two-factor for ${user.name}?`}
                      description={`For a lost authenticator: ${user.name} (${user.email}) then signs in with their password alone, until they turn two-factor on again on their Security page.`}
                      confirm="Turn off two-factor"
                      action={turnOffTwoFactor}
                      values={{ userId: user.id, name: user.name }}
                    />
                  )}
                  <ConfirmAction
                    button="Delete"
                    label={`Delete ${user.name}`}
                    title={`Delete ${user.name}?`}
                    description={`${user.name} (${user.email}) loses access at once; their API keys and app authorizations are deleted too. This cannot be undone.`}
                    confirm={`Delete ${user.name}`}
                    action={deleteUser}
                    values={{ userId: user.id, name: user.name }}
                  />
                </>
              ),
            },
          ]}
          pagination={{ at: list.pagination, href }}
        />
      </section>
    </>
  );
}
