import type { Metadata } from 'next';
import { DataTable } from '~/components/data-table';
import { utcMinute } from '~/components/format';
import { dashboardCaller } from '~/server/dashboard';
import { revokeKey } from './actions';
import { CreateKeyForm } from './create-key-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'API keys' };

const when = (iso: string | null, none = 'never') => (iso ? utcMinute(iso) : none);

export default async function ApiKeysPage() {
  const caller = await dashboardCaller('/dashboard/api-keys');
  const keys = await caller.apiKeys.list();
  return (
    <>
      <h1>API keys</h1>
      <p className="lead">
        Keys act as you, limited to their scopes. Send one as <code>Authorization: Bearer …</code>.
      </p>
      <CreateKeyForm />
      <section className="panel">
        <h2>Your keys</h2>
        <DataTable
          label="Your keys"
          rows={keys}
          rowKey={(key) => key.id}
          rowTestId={(key) => `api-key-${key.name}`}
          empty={<p className="muted">No keys yet.</p>}
          columns={[
            { header: 'Name', cell: (key) => key.name },
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
              cell: (key) =>
                key.revokedAt ? (
                  <span className="badge">Revoked</span>
                ) : (
                  <form action={revokeKey}>
                    <input type="hidden" name="keyId" value={key.id} />
                    <button type="submit" className="danger">
                      Revoke
                    </button>
                  </form>
                ),
            },
          ]}
        />
      </section>
    </>
  );
}
