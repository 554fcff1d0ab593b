import type { Metadata } from 'next';
import { ConfirmAction } from '~/components/confirm-action';
import { DataTable } from '~/components/data-table';
import { EmptyState } from '~/components/empty-state';
import { dashboardCaller } from '~/server/dashboard';
import { revokeApp } from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Authorized apps' };

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
        <DataTable
          label="Authorized apps"
          rows={apps}
          rowKey={(app) => app.clientId}
          empty={
            <EmptyState title="No authorized apps">
              When you allow an application on the consent page, it shows here.
            </EmptyState>
          }
          columns={[
            { header: 'Application', cell: (app) => app.name },
            { header: 'Scopes', cell: (app) => app.scopes.join(', ') },
            { header: 'First allowed', cell: (app) => day(app.firstAuthorizedAt) },
            { header: 'Last allowed', cell: (app) => day(app.lastAuthorizedAt) },
            {
              header: 'Actions',
              hideHeader: true,
              cell: (app) => (
                <ConfirmAction
                  button="Revoke"
                  label={`Revoke ${app.name}`}
                  title={`Revoke ${app.name}?`}
                  description={`${app.name} loses its access and refresh tokens now; it must ask you again.`}
                  confirm="Revoke access"
                  action={revokeApp}
                  values={{ clientId: app.clientId, name: app.name }}
                />
              ),
            },
          ]}
        />
      </section>
    </>
  );
}
