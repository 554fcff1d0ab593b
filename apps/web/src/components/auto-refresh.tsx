'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/**
 * Renders the page's server components again every `seconds` while mounted: for a page showing
 * work the server finishes on its own (a delivery being sent). Client state, such as an open
 * dialog, is kept.
 */
export function AutoRefresh({ seconds }: { seconds: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), seconds * 1000);
    return () => clearInterval(timer);
  }, [router, seconds]);
  return null;
}
