'use client';

import { useState } from 'react';
import type { ActionResult } from '~/server/action-result';
import { Dialog, DialogClose } from './dialog';
import { useToastAction } from './toast';

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
};

/** A destructive action behind a confirmation that names its object; a refusal shows inside. */
export function ConfirmAction(props: ConfirmActionProps) {
  const [open, setOpen] = useState(false);
  const [result, run, pending] = useToastAction(props.action, () => setOpen(false));
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={props.title}
      description={props.description}
      trigger={
        <button type="button" className="danger" aria-label={props.label}>
          {props.button}
        </button>
      }
    >
      <form action={run} className="form">
        {Object.entries(props.values).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {result.error && (
          <p className="error" role="alert">
            {result.error}
          </p>
        )}
        <div className="actions end">
          <DialogClose asChild>
            <button type="button">Cancel</button>
          </DialogClose>
          <button type="submit" className="danger solid" disabled={pending}>
            {props.confirm}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
