import type { ReactNode } from 'react';
import { Nav, type NavItem } from '~/components/nav';
import { RouteFocus } from '~/components/route-focus';
import { SignOutButton } from '~/components/sign-out-button';
import { ToastProvider } from '~/components/toast';
import { currentPrincipal } from '~/server/dashboard';

/** Pages every signed-in user may use; admins see the admin pages too (the API decides). */
const EVERYONE: NavItem[] = [
  { href: '/dashboard', label: 'Home' },
  { href: '/dashboard/posts', label: 'Posts' },
  { href: '/dashboard/integrations', label: 'Integrations' },
  { href: '/dashboard/media', label: 'Media' },
  { href: '/dashboard/analytics', label: 'Analytics' },
  { href: '/dashboard/webhooks', label: 'Webhooks' },
  { href: '/dashboard/api-keys', label: 'API keys' },
  { href: '/dashboard/authorized-apps', label: 'Authorized apps' },
];
const ADMINS: NavItem[] = [
  { href: '/dashboard/users', label: 'Users' },
  { href: '/dashboard/oauth-apps', label: 'OAuth apps' },
];
const ACCOUNT: NavItem[] = [
  { href: '/dashboard/profile', label: 'Profile' },
  { href: '/dashboard/security', label: 'Security' },
  { href: '/dashboard/settings', label: 'Settings' },
];

/**
 * The dashboard's frame; each page itself sends a signed-out visitor to sign in. Its first Tab
 * stop skips the navigation to the page's main region (WCAG 2.4.1), shown while focused.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const principal = await currentPrincipal();
  const items = principal
    ? [...EVERYONE, ...(principal.role === 'admin' ? ADMINS : []), ...ACCOUNT]
    : [];
  return (
    <ToastProvider>
      {principal && (
        <a href="#content" className="skip-link">
          Skip to content
        </a>
      )}
      {principal && <Nav items={items} footer={<SignOutButton />} />}
      <main className="wide" id="content" tabIndex={-1}>
        {children}
      </main>
      <RouteFocus />
    </ToastProvider>
  );
}
