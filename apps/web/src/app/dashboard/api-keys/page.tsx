import type { Metadata } from 'next';
import { DataTable } from '~/components/data-table';
import { utcMinute } from '~/components/format';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { revokeKey } from './actions';
import { CreateKeyForm } from './create-key-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'API keys' };

const when = (iso: string | null, none = 'never') => (iso ? utcMinute(iso) : none);

const BADGE = { expired: 'Expired', revoked: 'Revoked' } as const;

export default async function ApiKeysPage() {
  const { role } = await requirePrincipal('/dashboard/api-keys');
  const caller = await dashboardCaller('/dashboard/api-keys');
  const keys = await caller.apiKeys.list();
  // An admin sees every key of the account (docs/dashboard.md): the table says whose each is.
  const admin = role === 'admin';
  const heading = admin ? "The account's keys" : 'Your keys';
  return (
    <>
      <h1>API keys</h1>
      <p className="lead">
        A key acts as the user who made it, limited to its scopes. Send one as{' '}
        <code>Authorization: Bearer …</code>.
      </p>
      <CreateKeyForm />
      <section className="panel">
        <h2>{heading}</h2>
        {admin && <p className="muted">Every key of the account, yours and other users'.</p>}
        <DataTable
          label={heading}
          rows={keys}
          rowKey={(key) => key.id}
          rowTestId={(key) => `api-key-${key.name}`}
          empty={<p className="muted">No keys yet.</p>}
          columns={[
            { header: 'Name', cell: (key) => key.name },
            admin && {
              header: 'Owner',
              cell: (key) => `${key.owner.name} (${key.owner.email})`,
            },
            {
              header: 'Key',
              cell: (key) => (
                <code>
                  {key.prefix}…{key.lastFour}
                </code>
              ),
            },
            { header: 'Scopes', cell: (key) => key.scopes.join(', ') },
            { header: 'Last used', cell: (key) => when(key.lastUsedAt) },
            { header: 'Expires', cell: (key) => when(key.expiresAt) },
            {
              header: 'Actions',
              hideHeader: true,
              // An expired or revoked key no longer works: there is nothing to revoke.
              cell: (key) =>
                key.state === 'active' ? (
                  <form action={revokeKey}>
                    <input type="hidden" name="keyId" value={key.id} />
                    <button type="submit" className="danger">
                      Revoke
                    </button>
                  </form>
                ) : (
                  <span className="badge">{BADGE[key.state]}</span>
                ),
            },
          ]}
        />
      </section>
    </>
  );
}
