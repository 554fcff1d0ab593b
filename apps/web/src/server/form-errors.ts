import { toApiError } from '@chorus/api';

/** A failed procedure, as a form shows it: the message, and each invalid field. */
export function formError(error: unknown): string {
  const failure = toApiError(error);
  if (failure.code === 'unauthorized') return 'Your session ended: sign in again.';
  const issues = failure.details?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    return issues
      .map((issue: { path?: string; message?: string }) =>
        issue.path ? `${issue.path}: ${issue.message}` : (issue.message ?? ''),
      )
      .join(' ');
  }
  return failure.status >= 500 ? 'Something went wrong; try again.' : failure.message;
}

/** A refusal as a form with only a message shows it. */
export const refusal = (error: unknown) => ({ error: formError(error) });
