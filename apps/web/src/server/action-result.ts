import { toApiError } from '@chorus/api';
import { formError, messageInWords, type ChannelNames } from './form-errors';

/**
 * What a dashboard server action answers: a success message for the toast, or the failure as
 * the form shows it (the message, and per field the message to show beside it). `at` makes
 * every answer new, so the same message twice still shows a toast twice.
 */
export type ActionResult = {
  ok?: string;
  error?: string;
  fields?: Record<string, string>;
  /** A secret the action created, to show this once (a webhook's signing secret). */
  secret?: string;
  /** The page of what the action created (a new post), to go to. */
  location?: string;
  at?: number;
};

/** Domain refusals that concern one field of the form. */
const FIELD_OF_CODE: Record<string, string> = {
  email_already_exists: 'email',
  last_admin: 'role',
  missing_api_key: 'apiKey',
};

export const succeeded = (ok: string): ActionResult => ({ ok, at: Date.now() });

/** A request no form of ours sends: said plainly, nothing done. */
export const malformed = (): ActionResult => ({
  error: 'The form was not understood.',
  at: Date.now(),
});

/**
 * A refusal as its form shows it; `channels` names a post's channels in it. Nothing typed comes
 * back: the form keeps it (components/use-form-action.ts).
 */
export function failed(error: unknown, channels?: ChannelNames): ActionResult {
  const failure = toApiError(error);
  const fields: Record<string, string> = {};
  const field = FIELD_OF_CODE[failure.code];
  if (field) fields[field] = failure.message;
  const issues = failure.details?.issues;
  if (Array.isArray(issues)) {
    for (const issue of issues as { path?: string; message?: string }[]) {
      // The field the path begins with: `tags` of `tags[1]`, `settings` of `settings.theme`.
      if (issue.path && issue.message) {
        fields[issue.path.split(/[.[]/)[0] ?? ''] = messageInWords(issue.message);
      }
    }
  }
  return { error: formError(error, channels), fields, at: Date.now() };
}

/** A form value as a string ('' when absent or a file). */
export const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};
