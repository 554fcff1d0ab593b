'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';

export type NavItem = { href: string; label: string };

/** The dashboard's navigation: a bar on wide screens, a menu button on phones. */
export function Nav({ items, footer }: { items: NavItem[]; footer: React.ReactNode }) {
  const path = usePathname();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // An open menu closes on Escape, as a disclosure does, and gives focus back to its button.
  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [open]);
  const current = (href: string) =>
    href === '/dashboard' ? path === href : path === href || path.startsWith(`${href}/`);
  return (
    <header className="topbar">
      <Link href="/dashboard" className="brand">
        Chorus
      </Link>
      <button
        ref={button}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls="dashboard-nav"
        onClick={() => setOpen(!open)}
      >
        Menu
      </button>
      <nav id="dashboard-nav" aria-label="Dashboard" className={open ? 'open' : undefined}>
        {items.map((item) => (
          <Link
            key={item.href}
            href={item.href}
            aria-current={current(item.href) ? 'page' : undefined}
            onClick={() => setOpen(false)}
          >
            {item.label}
          </Link>
        ))}
        <span className="nav-footer">{footer}</span>
      </nav>
    </header>
  );
}
