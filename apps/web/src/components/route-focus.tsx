'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { headingAfterNavigation } from './focus-return';

/**
 * Keyboard and screen-reader users land on the new page's heading after the app moved them
 * there (a composer's Schedule opens the post's page), not at the top of nothing.
 */
export function RouteFocus() {
  const path = usePathname();
  const shown = useRef(path);
  useEffect(() => {
    // The first page is the browser's to focus (its skip link first).
    if (shown.current === path) return;
    shown.current = path;
    return headingAfterNavigation();
  }, [path]);
  return null;
}
