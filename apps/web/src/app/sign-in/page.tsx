import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentPrincipal } from '~/server/dashboard';
import { safeReturnPath } from '~/server/return-path';
import { SignInForm } from './sign-in-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: { absolute: 'Sign in to Chorus' } };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string | string[] }>;
}) {
  const { callbackUrl } = await searchParams;
  const returnTo = safeReturnPath(typeof callbackUrl === 'string' ? callbackUrl : undefined);
  if (await currentPrincipal()) redirect(returnTo);
  return (
    <main className="narrow">
      <h1>Sign in to Chorus</h1>
      <p className="lead">Use your email address and password.</p>
      <SignInForm returnTo={returnTo} />
    </main>
  );
}
