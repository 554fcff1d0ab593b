import type { Metadata } from 'next';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { PasswordForm, ProfileForm } from './profile-forms';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Profile' };

export default async function ProfilePage() {
  const { userId } = await requirePrincipal('/dashboard/profile');
  const caller = await dashboardCaller('/dashboard/profile');
  const user = await caller.users.get({ userId });
  return (
    <>
      <h1>Profile</h1>
      <p className="lead">
        Signed in as {user.email} ({user.role}).
      </p>
      <div className="grid-2">
        <section className="panel">
          <h2>Name and email</h2>
          <ProfileForm user={user} />
        </section>
        <section className="panel">
          <h2>Password</h2>
          <PasswordForm />
        </section>
      </div>
    </>
  );
}
