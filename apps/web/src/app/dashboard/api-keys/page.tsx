import { dashboardCaller } from '~/server/dashboard';
import { revokeKey } from './actions';
import { CreateKeyForm } from './create-key-form';

export const dynamic = 'force-dynamic';

const when = (iso: string | null, none = 'never') =>
  iso ? iso.slice(0, 16).replace('T', ' ') : none;

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
        {keys.length === 0 ? (
          <p className="muted">No keys yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Scopes</th>
                <th>Last used</th>
                <th>Expires</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} data-testid={`api-key-${key.name}`}>
                  <td>{key.name}</td>
                  <td>
                    <code>
                      {key.prefix}…{key.lastFour}
                    </code>
                  </td>
                  <td>{key.scopes.join(', ')}</td>
                  <td>{when(key.lastUsedAt)}</td>
                  <td>{when(key.expiresAt)}</td>
                  <td>
                    {key.revokedAt ? (
                      <span className="badge">Revoked</span>
                    ) : (
                      <form action={revokeKey}>
                        <input type="hidden" name="keyId" value={key.id} />
                        <button type="submit" className="danger">
                          Revoke
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
