import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentPrincipal } from '~/server/dashboard';
import { safeReturnPath } from '~/server/return-path';
import { SignInForm } from './sign-in-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: { absolute: 'Sign in to Chorus' } };

/** Why the dashboard sent the browser here (`?reason=`), where it ended the session itself. */
const REASONS = new Map([
  ['password-changed', 'Your password was changed: sign in with the new one.'],
  ['signed-out-everywhere', 'You were signed out on every device.'],
]);

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string | string[]; reason?: string | string[] }>;
}) {
  const { callbackUrl, reason } = await searchParams;
  const why = typeof reason === 'string' ? REASONS.get(reason) : undefined;
  const returnTo = safeReturnPath(typeof callbackUrl === 'string' ? callbackUrl : undefined);
  if (await currentPrincipal()) redirect(returnTo);
  return (
    <main className="narrow">
      <h1>Sign in to Chorus</h1>
      <p className="lead">Use your email address and password.</p>
      {why && (
        <p className="notice ok" role="status">
          {why}
        </p>
      )}
      <SignInForm returnTo={returnTo} />
    </main>
  );
}
