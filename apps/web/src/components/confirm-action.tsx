'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ActionResult } from '~/server/action-result';
import { OneTimeSecret } from './copy-button';
import { Dialog, DialogActions, DialogClose } from './dialog';
import { useFormAction } from './use-form-action';

type ConfirmActionProps = {
  /** The trigger's text, e.g. "Delete"; `label` is its accessible name, e.g. "Delete Ada". */
  button: string;
  label: string;
  title: string;
  description: string;
  confirm: string;
  action: (state: ActionResult, form: FormData) => Promise<ActionResult>;
  /** Hidden inputs that say what to act on. */
  values: Record<string, string>;
  /** Where to go once done, when the action removes the page it was on. */
  after?: string;
  /** How to name a secret the answer carries (shown once, in the dialog). */
  secretLabel?: string;
  /** `primary` for a step forward that cannot be undone (publishing); `danger` otherwise. */
  tone?: 'primary' | 'danger';
  /** The trigger is disabled, with the id of the text that says why. */
  disabled?: boolean;
  describedBy?: string;
};

/**
 * An action that cannot be undone behind a confirmation that names its object; a refusal shows
 * inside. An answer with a secret (a rotated key) keeps the dialog open to show it this once.
 */
export function ConfirmAction(props: ConfirmActionProps) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string>();
  const { result, form, pending } = useFormAction(props.action, {
    onSuccess: (answer) => {
      if (answer.secret) {
        setSecret(answer.secret);
      } else {
        setOpen(false);
        if (props.after) router.push(props.after);
      }
    },
  });
  const tone = props.tone ?? 'danger';
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) setSecret(undefined);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={props.title}
      description={props.description}
      trigger={
        <button
          type="button"
          className={tone}
          aria-label={props.label}
          disabled={props.disabled}
          aria-describedby={props.describedBy}
        >
          {props.button}
        </button>
      }
    >
      {secret ? (
        <>
          <OneTimeSecret label={props.secretLabel ?? 'The new secret'} value={secret} />
          <div className="actions end">
            <DialogClose asChild>
              <button type="button" className="primary">
                Done
              </button>
            </DialogClose>
          </div>
        </>
      ) : (
        <form {...form} className="form">
          {Object.entries(props.values).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {result.error && (
            <p className="error" role="alert">
              {result.error}
            </p>
          )}
          <DialogActions submit={props.confirm} tone={tone} pending={pending} />
        </form>
      )}
    </Dialog>
  );
}
