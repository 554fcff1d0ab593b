'use client';

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

type Problems = { blocked: string | null; setBlocked: (blocked: string | null) => void };

const ProblemsContext = createContext<Problems | null>(null);

/**
 * Shares why the composer's next step is blocked with the post's other buttons (Publish now, in
 * the Status panel): what the composer would refuse to schedule is not published either
 * (docs/dashboard.md).
 */
export function ProblemsProvider({ children }: { children: ReactNode }) {
  const [blocked, setBlocked] = useState<string | null>(null);
  return <ProblemsContext value={{ blocked, setBlocked }}>{children}</ProblemsContext>;
}

/** The composer says why its next step is blocked (null: it is not), until it unmounts. */
export function useReportBlocked(blocked: string | null) {
  const setBlocked = useContext(ProblemsContext)?.setBlocked;
  useEffect(() => {
    setBlocked?.(blocked);
    return () => setBlocked?.(null);
  }, [blocked, setBlocked]);
}

/** Why the composer blocks its next step, or null (also with no composer on the page). */
export const useComposerBlocked = () => useContext(ProblemsContext)?.blocked ?? null;
