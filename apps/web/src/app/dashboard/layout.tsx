import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '~/components/sign-out-button';
import { currentPrincipal } from '~/server/dashboard';

/** The dashboard's frame; each page itself sends a signed-out visitor to sign in. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const principal = await currentPrincipal();
  return (
    <>
      {principal && (
        <header className="topbar">
          <nav>
            <strong>Chorus</strong>
            <Link href="/dashboard/api-keys">API keys</Link>
            {principal.role === 'admin' && <Link href="/dashboard/oauth-apps">OAuth apps</Link>}
            <Link href="/dashboard/security">Security</Link>
            <Link href="/docs">API docs</Link>
          </nav>
          <SignOutButton />
        </header>
      )}
      <main className="wide">{children}</main>
    </>
  );
}
