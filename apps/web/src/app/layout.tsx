import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

// Rendered per request: every page carries a fresh CSP nonce (src/proxy.ts).
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Chorus',
  description: 'Social-content management: users, integrations, content, analytics and webhooks.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
