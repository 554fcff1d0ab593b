'use client';

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export type Tab = { key: string; label: ReactNode; panel: ReactNode };

/**
 * Tabs as the ARIA pattern has them: one tab stop, arrows, Home and End move between tabs,
 * each panel labelled by its tab. Hidden panels stay in the page, so nothing typed is lost.
 */
export function VariantTabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  const id = useId();
  const [chosen, setChosen] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const active = Math.min(chosen, tabs.length - 1);
  const move = (event: KeyboardEvent) => {
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? active === last
          ? 0
          : active + 1
        : event.key === 'ArrowLeft'
          ? active === 0
            ? last
            : active - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setChosen(next);
    refs.current[next]?.focus();
  };
  return (
    <div className="variant-tabs">
      <div role="tablist" aria-label={label} className="tablist" onKeyDown={move}>
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            ref={(node) => {
              refs.current[index] = node;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${index}`}
            aria-selected={index === active}
            aria-controls={`${id}-panel-${index}`}
            tabIndex={index === active ? 0 : -1}
            onClick={() => setChosen(index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={tab.key}
          role="tabpanel"
          id={`${id}-panel-${index}`}
          aria-labelledby={`${id}-tab-${index}`}
          hidden={index !== active}
          className="tabpanel"
        >
          {tab.panel}
        </div>
      ))}
    </div>
  );
}
