import { ConfirmAction } from '~/components/confirm-action';
import { EmptyState } from '~/components/empty-state';
import { dashboardCaller } from '~/server/dashboard';
import { revokeApp } from './actions';

export const dynamic = 'force-dynamic';

const day = (iso: string) => iso.slice(0, 10);

export default async function AuthorizedAppsPage() {
  const caller = await dashboardCaller('/dashboard/authorized-apps');
  const apps = await caller.authorizedApps.list();
  return (
    <>
      <h1>Authorized apps</h1>
      <p className="lead">
        Applications you allowed to act for you. Revoking one ends its access at once.
      </p>
      <section className="panel">
        {apps.length === 0 ? (
          <EmptyState title="No authorized apps">
            When you allow an application on the consent page, it shows here.
          </EmptyState>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Application</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">First allowed</th>
                  <th scope="col">Last allowed</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {apps.map((app) => (
                  <tr key={app.clientId}>
                    <td>{app.name}</td>
                    <td>{app.scopes.join(', ')}</td>
                    <td>{day(app.firstAuthorizedAt)}</td>
                    <td>{day(app.lastAuthorizedAt)}</td>
                    <td>
                      <ConfirmAction
                        button="Revoke"
                        label={`Revoke ${app.name}`}
                        title={`Revoke ${app.name}?`}
                        description={`${app.name} loses its access and refresh tokens now; it must ask you again.`}
                        confirm="Revoke access"
                        action={revokeApp}
                        values={{ clientId: app.clientId, name: app.name }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
