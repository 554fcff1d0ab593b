'use client';

import type { ReactNode } from 'react';
import type { ActionResult } from '~/server/action-result';
import { useFormAction } from './use-form-action';

type ActionButtonProps = {
  /** The button's text; `label` its accessible name when the text alone is ambiguous. */
  children: ReactNode;
  label?: string;
  action: (state: ActionResult, form: FormData) => Promise<ActionResult>;
  /** Hidden inputs that say what to act on. */
  values: Record<string, string>;
  className?: string;
};

/** A small action that needs no confirmation: one button, its answer as a toast. */
export function ActionButton({ children, label, action, values, className }: ActionButtonProps) {
  const { form, pending } = useFormAction(action);
  return (
    <form {...form} className="inline">
      {Object.entries(values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className} aria-label={label} disabled={pending}>
        {children}
      </button>
    </form>
  );
}
