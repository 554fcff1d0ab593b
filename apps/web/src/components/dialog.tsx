'use client';

import * as Radix from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

type DialogProps = {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  description?: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
};

/** A modal dialog: focus kept inside, Escape closes, focus returns to the trigger (Radix). */
export function Dialog({ trigger, title, description, open, onOpenChange, children }: DialogProps) {
  return (
    <Radix.Root open={open} onOpenChange={onOpenChange}>
      <Radix.Trigger asChild>{trigger}</Radix.Trigger>
      <Radix.Portal>
        <Radix.Overlay className="overlay" />
        <Radix.Content className="dialog">
          <Radix.Title>{title}</Radix.Title>
          {description ? (
            <Radix.Description className="muted">{description}</Radix.Description>
          ) : (
            <Radix.Description className="sr-only">{title}</Radix.Description>
          )}
          {children}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}

export const DialogClose = Radix.Close;

/** A dialog form's buttons: Cancel (closes it) and the submit, disabled while it runs. */
export function DialogActions({
  submit,
  pending,
  tone = 'primary',
}: {
  submit: ReactNode;
  pending: boolean;
  tone?: 'primary' | 'danger';
}) {
  return (
    <div className="actions end">
      <DialogClose asChild>
        <button type="button">Cancel</button>
      </DialogClose>
      <button
        type="submit"
        className={tone === 'danger' ? 'danger solid' : 'primary'}
        disabled={pending}
      >
        {submit}
      </button>
    </div>
  );
}
