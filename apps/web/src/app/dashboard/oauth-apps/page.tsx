import type { Metadata } from 'next';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { deleteApp } from './actions';
import { CreateAppForm, RotateSecretForm } from './app-forms';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'OAuth applications' };

const PATH = '/dashboard/oauth-apps';

export default async function OAuthAppsPage() {
  const principal = await requirePrincipal(PATH);
  if (principal.role !== 'admin') {
    return (
      <>
        <h1>OAuth applications</h1>
        <p className="lead">Only admins of the account register applications.</p>
      </>
    );
  }
  const apps = await (await dashboardCaller(PATH)).oauthClients.list();
  return (
    <>
      <h1>OAuth applications</h1>
      <p className="lead">
        Applications that users of this account can authorize at <code>/oauth/authorize</code>.
      </p>
      <CreateAppForm />
      <section className="panel">
        <h2>Registered applications</h2>
        {apps.length === 0 && <p className="muted">None yet.</p>}
        {apps.map((app) => (
          <article key={app.id} className="item" data-testid={`oauth-app-${app.name}`}>
            <header>
              <strong>{app.name}</strong>{' '}
              <span className="badge">{app.confidential ? 'confidential' : 'public'}</span>
            </header>
            <dl>
              <dt>Client ID</dt>
              <dd>
                <code>{app.id}</code>
              </dd>
              <dt>Redirect URIs</dt>
              <dd>
                {app.redirectUris.map((uri) => (
                  <code key={uri} className="block">
                    {uri}
                  </code>
                ))}
              </dd>
              <dt>Scopes</dt>
              <dd>{app.scopes.join(', ')}</dd>
              {app.secretLastFour && (
                <>
                  <dt>Secret</dt>
                  <dd>
                    <code>cso_cs_…{app.secretLastFour}</code>
                  </dd>
                </>
              )}
            </dl>
            <div className="actions">
              {app.confidential && <RotateSecretForm clientId={app.id} />}
              <form action={deleteApp}>
                <input type="hidden" name="clientId" value={app.id} />
                <button type="submit" className="danger">
                  Delete
                </button>
              </form>
            </div>
          </article>
        ))}
      </section>
    </>
  );
}
