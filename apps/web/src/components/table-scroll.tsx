import type { ReactNode } from 'react';

/**
 * A wide table that scrolls sideways on a phone. Focusable and named, so a keyboard can scroll
 * it too when it holds no link or button of its own (WCAG 2.1.1; axe scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
