import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

// Rendered per request: every page carries a fresh CSP nonce (src/proxy.ts).
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  // A page names itself first ("Posts · Chorus"): tabs, history and screen readers tell pages
  // apart by it (WCAG 2.4.2).
  title: { default: 'Chorus', template: '%s · Chorus' },
  description: 'Social-content management: users, integrations, content, analytics and webhooks.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
