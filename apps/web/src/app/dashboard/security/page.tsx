import type { Metadata } from 'next';
import { dashboardCaller } from '~/server/dashboard';
import { signOutEverywhere } from './actions';
import { DisableTwoFactor, EnrollTwoFactor } from './two-factor-forms';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Security' };

export default async function SecurityPage() {
  const caller = await dashboardCaller('/dashboard/security');
  const { enabled } = await caller.twoFactor.status();
  return (
    <>
      <h1>Security</h1>
      <section className="panel">
        <h2 id="two-factor-heading">Two-factor authentication</h2>
        {enabled ? (
          <>
            <p data-testid="two-factor-status">
              <span className="badge on">On</span> Signing in asks for a code from your app.
            </p>
            <DisableTwoFactor />
          </>
        ) : (
          <>
            <p data-testid="two-factor-status">
              <span className="badge">Off</span> Add a code from an authenticator app to your
              password.
            </p>
            <EnrollTwoFactor />
          </>
        )}
      </section>
      <section className="panel">
        <h2>Sessions</h2>
        <p>Signed in somewhere you no longer use? End every session of yours, this one too.</p>
        <form action={signOutEverywhere}>
          <button type="submit">Sign out everywhere</button>
        </form>
      </section>
    </>
  );
}
