import type { Metadata } from 'next';
import { listedTimeZones } from '@chorus/validators';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { SettingsForm } from './settings-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Account settings' };

/** Every member reads the account's settings; admins change them (the API decides). */
export default async function SettingsPage() {
  const { role } = await requirePrincipal('/dashboard/settings');
  const caller = await dashboardCaller('/dashboard/settings');
  const { data: settings } = await caller.account.settings({});
  return (
    <>
      <h1>Account settings</h1>
      <p className="lead">What applies to everyone in this account.</p>
      <section className="panel">
        {role === 'admin' ? (
          <SettingsForm settings={settings} zones={listedTimeZones()} />
        ) : (
          <>
            <dl className="facts">
              <dt>Time zone</dt>
              <dd>{settings.timeZone}</dd>
              <dt>Approval before publishing</dt>
              <dd>{settings.requireApproval ? 'Required for members' : 'Not required'}</dd>
            </dl>
            <p className="muted">Only admins can change these.</p>
          </>
        )}
      </section>
    </>
  );
}
