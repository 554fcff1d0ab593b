import { ZRole } from '@chorus/validators';
import { redirect } from 'next/navigation';
import { ConfirmAction } from '~/components/confirm-action';
import { EmptyState } from '~/components/empty-state';
import { Pagination } from '~/components/pagination';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { deleteUser } from './actions';
import { UserDialog } from './user-dialog';

export const dynamic = 'force-dynamic';

const PER_PAGE = 20;
type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

export default async function UsersPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const caller = await dashboardCaller('/dashboard/users');
  const me = await requirePrincipal('/dashboard/users');
  const q = one(params.q).trim().slice(0, 200);
  const role = ZRole.safeParse(one(params.role)).data;
  const page = Math.max(1, Number.parseInt(one(params.page), 10) || 1);
  const list = await caller.users
    .list({ page, limit: PER_PAGE, q: q || undefined, role })
    .catch((error: unknown) => {
      // Users is an admin page: the procedure refuses anyone else; send them home.
      if ((error as { code?: string }).code === 'FORBIDDEN') redirect('/dashboard');
      throw error;
    });
  // The edit form shows the notification setting, which only the full user carries: the
  // page's users in full, in one query.
  const users = await caller.users.details({ userIds: list.data.map((user) => user.id) });
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
        {users.length === 0 ? (
          <EmptyState title={q || role ? 'No user matches' : 'No users yet'}>
            {q || role ? 'Try another search or role.' : 'Create the first one.'}
          </EmptyState>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.map((user) => (
                  <tr key={user.id}>
                    <td>
                      {user.name}
                      {user.id === me.userId && <span className="badge">you</span>}
                    </td>
                    <td>{user.email}</td>
                    <td>
                      <span className={user.role === 'admin' ? 'badge on' : 'badge'}>
                        {user.role}
                      </span>
                    </td>
                    <td>
                      {user.lastLogin ? (
                        <time dateTime={user.lastLogin}>
                          {user.lastLogin.slice(0, 16).replace('T', ' ')} UTC
                        </time>
                      ) : (
                        'never'
                      )}
                    </td>
                    <td className="actions">
                      <UserDialog user={user} />
                      <ConfirmAction
                        button="Delete"
                        label={`Delete ${user.name}`}
                        title={`Delete ${user.name}?`}
                        description={`${user.name} (${user.email}) loses access at once; their API keys and app authorizations are deleted too. This cannot be undone.`}
                        confirm={`Delete ${user.name}`}
                        action={deleteUser}
                        values={{ userId: user.id, name: user.name }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          page={list.pagination.page}
          pages={list.pagination.pages}
          total={list.pagination.total}
          href={href}
        />
      </section>
    </>
  );
}
