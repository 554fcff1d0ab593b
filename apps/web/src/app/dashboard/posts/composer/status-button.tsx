'use client';

import { ActionButton } from '~/components/action-button';
import type { ActionResult } from '~/server/action-result';
import { useComposerState } from './composer-state';

type StatusButtonProps = {
  /** What it does, e.g. "Move back to draft"; `label` its accessible name when ambiguous. */
  children: string;
  label?: string;
  /** The composer form's id when the page shows the composer. */
  composer?: string;
  /** What the composer's action does (its `intent`): a status, `approve` or `retry`. */
  intent: string;
  /** Without a composer: the action alone, with hidden inputs that say what to act on. */
  action: (state: ActionResult, form: FormData) => Promise<ActionResult>;
  values: Record<string, string>;
  className?: string;
};

/** "Move back to draft" as "Save and move back to draft". */
export const savingFirst = (what: string) =>
  `Save and ${what.charAt(0).toLowerCase()}${what.slice(1)}`;

/**
 * A change of status on the post's page. Where the composer shows the post, it submits the
 * composer's form, so that what is typed there is saved with the change and never dropped (it
 * says "Save and …" while there is anything unsaved); elsewhere, a form of its own.
 */
export function StatusButton(props: StatusButtonProps) {
  const { children, label, composer, intent, action, values, className } = props;
  const state = useComposerState();
  if (!composer) {
    return (
      <ActionButton action={action} values={values} className={className} label={label}>
        {children}
      </ActionButton>
    );
  }
  const name = (text: string) => (state.unsaved ? savingFirst(text) : text);
  return (
    <button
      type="submit"
      form={composer}
      name="intent"
      value={intent}
      className={className}
      aria-label={label && name(label)}
      disabled={state.pending}
    >
      {name(children)}
    </button>
  );
}
