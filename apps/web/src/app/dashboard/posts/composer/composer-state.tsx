'use client';

import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';

/** What the post page's other buttons need to know of its composer. */
export interface ComposerState {
  /** Why its next step is blocked (problems to fix, the server's check pending), or null. */
  blocked: string | null;
  /** Its form differs from the post as last saved. */
  unsaved: boolean;
  /** A submission of its form is under way. */
  pending: boolean;
  /** The channels it sends to, in words ("Studio (Bluesky)"). */
  channels: readonly string[];
}

const NONE: ComposerState = { blocked: null, unsaved: false, pending: false, channels: [] };

type Report = (part: Partial<ComposerState>) => void;

// Two contexts: the composer, which reports, is not drawn again for each change it reports.
const StateContext = createContext<ComposerState>(NONE);
const ReportContext = createContext<Report | null>(null);

/**
 * Shares the composer's state with the post's other buttons (the Status panel's): what the
 * composer would refuse to schedule is not published either, and a change of status made
 * while it holds unsaved changes saves them with it (docs/dashboard.md).
 */
export function ComposerStateProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ComposerState>(NONE);
  // One function for the page's life: the reporters' effects depend on it.
  const report = useCallback(
    (part: Partial<ComposerState>) => setState((s) => ({ ...s, ...part })),
    [],
  );
  return (
    <ReportContext value={report}>
      <StateContext value={state}>{children}</StateContext>
    </ReportContext>
  );
}

/**
 * The composer says part of its state, as it changes, until it unmounts (then that part is as
 * with no composer). `part` is compared by value.
 */
export function useReportComposer(part: Partial<ComposerState>) {
  const report = useContext(ReportContext);
  const key = JSON.stringify(part);
  useEffect(() => {
    const told = JSON.parse(key) as Partial<ComposerState>;
    report?.(told);
    return () =>
      report?.(
        Object.fromEntries(
          Object.keys(told).map((name) => [name, NONE[name as keyof ComposerState]]),
        ),
      );
    // The key is the part: a new value reports again.
  }, [key, report]);
}

/** The composer's state (as with no composer when the page has none). */
export const useComposerState = () => useContext(StateContext);
