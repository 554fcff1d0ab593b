'use client';

import { startTransition, useState, useTransition, type FormEvent } from 'react';
import { requestFormReset } from 'react-dom';
import type { ActionResult } from '~/server/action-result';
import { keepFocusFromSubmitter } from './focus-return';
import { useToast } from './toast';

/**
 * A form's action: a server action, or a function of the page that calls one. Its answer may
 * carry more than an ActionResult for the form to show (an API key's name beside its secret).
 */
type Action<R extends ActionResult> = (state: Partial<R>, form: FormData) => Promise<R>;

type FormActionOptions<R extends ActionResult> = {
  /** Told each success (a dialog closes, a secret shows). */
  onSuccess?: (answer: Partial<R>) => void;
  /**
   * Reads the form before it is sent: adds what the action needs (a time as an instant), or
   * answers a refusal the browser can tell alone (two passwords that differ), and then nothing
   * is sent.
   */
  prepare?: (form: FormData) => Partial<R> | void;
  /**
   * Where focus goes when the answer takes away the button pressed and nothing takes its
   * place (a section's heading); the page's heading when not given.
   */
  focusAfter?: () => HTMLElement | null;
};

/**
 * The answer as the form shows it: a field edited since the refusal has no error any more (it
 * spoke of what was typed before), and a refusal that concerned only fields goes with the last.
 */
function showing<R extends ActionResult>(result: R, edited: ReadonlySet<string>): R {
  if (!result.fields || edited.size === 0) return result;
  const fields = Object.fromEntries(
    Object.entries(result.fields).filter(([name]) => !edited.has(name)),
  );
  return Object.keys(fields).length > 0 ? { ...result, fields } : { ...result, fields, error: '' };
}

/**
 * Runs a server action from a form (spread `form` on the <form>) and shows its answer as a
 * toast at once: the toast lives in the layout, so it shows even when the answer removes the
 * form (a deleted row). A refused form keeps everything typed, passwords included, which stay
 * in the browser: React's own form actions reset the form after every answer, so the form is
 * submitted here instead and reset only after a success, as React would. Editing a field
 * clears its error. Where the answer takes away the button pressed (a row removed, the
 * composer drawn anew for the saved post), focus goes to its successor, or where the form says
 * (`focusAfter`), or to the page's heading.
 * `reset` forgets the last answer: a dialog calls it when it closes, so that it opens again
 * without a refused attempt's errors.
 */
export function useFormAction<R extends ActionResult = ActionResult>(
  action: Action<R>,
  { onSuccess, prepare, focusAfter }: FormActionOptions<R> = {},
) {
  const show = useToast();
  const [result, setResult] = useState<Partial<R>>({});
  const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set());
  const [pending, startPending] = useTransition();
  const settle = (answer: Partial<R>, form?: HTMLFormElement) => {
    if (answer.ok) {
      show(answer.ok);
      onSuccess?.(answer);
      // Inside a transition, as React requires: the fields are reset when its render commits.
      if (form) startTransition(() => requestFormReset(form));
    } else if (answer.error) show(answer.error, 'error');
    setResult(answer);
    setEdited(new Set());
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const { submitter } = event.nativeEvent as SubmitEvent;
    // The button pressed names the intent (Schedule, Next free slot), as a native submit sends it.
    const data = new FormData(element, submitter);
    const refused = prepare?.(data);
    if (refused) return settle({ ...refused, at: Date.now() });
    if (submitter) keepFocusFromSubmitter(submitter, focusAfter);
    startPending(async () => settle(await action(result, data), element));
  };
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const { name } = event.target as HTMLInputElement;
    if (name && result.fields?.[name] !== undefined && !edited.has(name)) {
      setEdited(new Set(edited).add(name));
    }
  };
  const reset = () => {
    setResult({});
    setEdited(new Set());
  };
  return { result: showing(result, edited), form: { onSubmit, onChange }, pending, reset };
}
