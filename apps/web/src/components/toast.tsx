'use client';

import {
  createContext,
  useCallback,
  useContext,
  useState,
  useTransition,
  type ReactNode,
} from 'react';
import type { ActionResult } from '~/server/action-result';

type Toast = { id: number; text: string; tone: 'ok' | 'error' };
const ToastContext = createContext<(text: string, tone?: Toast['tone']) => void>(() => {});

/** Toasts in one polite live region: screen readers announce them, they leave after 5 s. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((text: string, tone: Toast['tone'] = 'ok') => {
    const id = Date.now() + Math.random();
    // A success answers what an earlier refusal said: its error toast is stale.
    setToasts((all) => [
      ...(tone === 'ok' ? all.filter((toast) => toast.tone !== 'error') : all),
      { id, text, tone },
    ]);
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

type Action = (state: ActionResult, form: FormData) => Promise<ActionResult>;

/**
 * Runs a server action from a form and shows its answer as a toast at once: the toast lives in
 * the layout, so it shows even when the answer removes the form (a deleted row). `reset` forgets
 * the last answer: a dialog calls it when it closes, so that it opens again without a refused
 * attempt's typing and errors.
 */
export function useToastAction(action: Action, onSuccess?: (answer: ActionResult) => void) {
  const show = useToast();
  const [result, setResult] = useState<ActionResult>({});
  const [pending, startTransition] = useTransition();
  const run = (form: FormData) =>
    startTransition(async () => {
      const answer = await action(result, form);
      if (answer.ok) {
        show(answer.ok);
        onSuccess?.(answer);
      } else if (answer.error) show(answer.error, 'error');
      setResult(answer);
    });
  const reset = () => setResult({});
  return [result, run, pending, reset] as const;
}
