import type { ActionResult } from '~/server/action-result';

/** The new password and its repetition, when they differ: the refusal beside the repetition. */
export function passwordsDiffer(form: FormData): ActionResult | undefined {
  if (form.get('password') === form.get('confirm')) return undefined;
  return {
    error: 'The two passwords differ.',
    fields: { confirm: 'Does not match the new password.' },
  };
}
