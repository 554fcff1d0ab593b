'use client';

import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { ActionResult } from '~/server/action-result';

type Toast = { id: number; text: string; tone: 'ok' | 'error' };
const ToastContext = createContext<(text: string, tone?: Toast['tone']) => void>(() => {});

/** Toasts in one polite live region: screen readers announce them, they leave after 5 s. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((text: string, tone: Toast['tone'] = 'ok') => {
    const id = Date.now() + Math.random();
    setToasts((all) => [...all, { id, text, tone }]);
    setTimeout(() => setToasts((all) => all.filter((toast) => toast.id !== id)), 5000);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <p key={toast.id} className={`toast ${toast.tone}`}>
            {toast.text}
          </p>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);

/** Shows each new answer of a server action as a toast (success or failure). */
export function useResultToast(result: ActionResult, onSuccess?: () => void) {
  const show = useToast();
  useEffect(() => {
    if (!result.at) return;
    if (result.ok) {
      show(result.ok);
      onSuccess?.();
    } else if (result.error) show(result.error, 'error');
    // Only a new answer (a new `at`) shows a toast.
  }, [result.at]);
}
