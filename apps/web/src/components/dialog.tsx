'use client';

import * as Radix from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { returnFocus } from './focus-return';

type DialogProps = {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: string;
  description?: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
  /**
   * Where focus goes on closing when the opener is gone (what the dialog did removed it); the
   * page's main heading when not given, or when it is gone too.
   */
  returnFocusTo?: () => HTMLElement | null;
};

/**
 * A modal dialog: focus kept inside, Escape closes (Radix). On closing, focus goes back to the
 * element that opened it, or, when what the dialog did removed or re-drew that element (a
 * rejected post leaves the list, a moved one is drawn on its new day), to its successor or a
 * fallback: never to <body>, which would send a keyboard user back to the top of the page.
 */
export function Dialog(props: DialogProps) {
  const { trigger, title, description, open, onOpenChange, children, returnFocusTo } = props;
  const opener = useRef<HTMLElement | null>(null);
  // Not stopped when the dialog unmounts: a dialog removed with its opener (a rejected post's
  // row) is the case to watch. It stops itself.
  const stopWatching = useRef(() => {});
  return (
    <Radix.Root open={open} onOpenChange={onOpenChange}>
      <Radix.Trigger asChild>{trigger}</Radix.Trigger>
      <Radix.Portal>
        <Radix.Overlay className="overlay" />
        <Radix.Content
          className="dialog"
          onOpenAutoFocus={() => {
            // Still the opener's focus: Radix moves it inside after this.
            stopWatching.current();
            const active = document.activeElement;
            opener.current =
              active instanceof HTMLElement && active !== document.body ? active : null;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            stopWatching.current = returnFocus(opener.current, returnFocusTo);
          }}
        >
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
