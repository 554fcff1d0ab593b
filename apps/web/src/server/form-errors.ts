import { toApiError } from '@chorus/api';

/**
 * The dashboard's words for the API's field names, as its forms label them: a refusal names
 * the field a person sees ("Time zone"), never the request's path (`timeZone`).
 */
const LABELS = new Map(
  Object.entries({
    scheduledAt: 'Publish at',
    timeZone: 'Time zone',
    title: 'Title',
    content: 'Content',
    tags: 'Tags',
    mediaIds: 'Media',
    targets: 'Channels',
    firstComment: 'First comment',
    recurrence: 'Repeats',
    comment: 'Comment',
    from: 'From',
    to: 'To',
    name: 'Name',
    email: 'Email',
    role: 'Role',
    url: 'URL',
    events: 'Events',
    expiresAt: 'Expires',
  }),
);

/**
 * API names a message may say itself ("scheduledAt must be in the future."), in words. Maps,
 * not objects: a path may hold a client's own key (`constructor`), which must find nothing.
 */
const IN_MESSAGES = new Map(
  Object.entries({
    scheduledAt: 'the time',
    timeZone: 'the time zone',
    firstComment: 'the first comment',
    mediaIds: 'the media',
  }),
);

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** An issue's path in words: `targets[1].thread[0].content` is "Post 2 of the thread on channel 2". */
export function fieldInWords(path: string): string {
  const target = /^targets\[(\d+)\]/.exec(path);
  const channel = target ? `channel ${Number(target[1]) + 1}` : '';
  const thread = /thread\[(\d+)\]/.exec(path);
  if (thread) return `Post ${Number(thread[1]) + 2} of the thread${channel && ` on ${channel}`}`;
  const leaf =
    path
      .replace(/\[\d+\]/g, '')
      .split('.')
      .at(-1) ?? path;
  const label =
    LABELS.get(leaf) ?? capitalized(leaf.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
  return channel && leaf !== 'targets' ? `${label} on ${channel}` : label;
}

/** An issue's message with any API name in it said in words. */
export const messageInWords = (message: string) =>
  capitalized(
    message.replace(
      /\b[a-z]+[A-Z]\w*\b/g,
      (name) => IN_MESSAGES.get(name) ?? LABELS.get(name) ?? name,
    ),
  );

/** A failed procedure, as a form shows it: the message, and each invalid field. */
export function formError(error: unknown): string {
  const failure = toApiError(error);
  if (failure.code === 'unauthorized') return 'Your session ended: sign in again.';
  const issues = failure.details?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    return issues
      .map((issue: { path?: string; message?: string }) => {
        const message = messageInWords(issue.message ?? '');
        return issue.path ? `${fieldInWords(issue.path)}: ${message}` : message;
      })
      .join(' ');
  }
  return failure.status >= 500 ? 'Something went wrong; try again.' : failure.message;
}

/** A refusal as a form with only a message shows it. */
export const refusal = (error: unknown) => ({ error: formError(error) });
