import { toApiError } from '@chorus/api';
import { inDashboardWords } from '../components/api-words';

/**
 * The dashboard's words for the API's field names, as its forms label them: a refusal names
 * the field a person sees ("Time zone"), never the request's path (`timeZone`).
 */
const LABELS = new Map(
  Object.entries({
    scheduledAt: 'Publish at',
    // `schedule: "next_slot"` is what the composer's Next free slot button sends.
    schedule: 'Next free slot',
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
    redirectUris: 'Redirect URIs',
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

/**
 * A post's channels by their place in the request, as the composer shows them
 * ("northwind.test (Bluesky)"); undefined where unknown, which is then said by its number.
 */
export type ChannelNames = (index: number) => string | undefined;

/** The last name of a path: `content` of `targets[1].thread[0].content`. */
const leafOf = (path: string) =>
  path
    .replace(/\[\d+\]/g, '')
    .split('.')
    .at(-1) ?? path;

/** An issue's path in words: `targets[1].thread[0].content` is "Post 2 of the thread on <channel>". */
export function fieldInWords(path: string, channels?: ChannelNames): string {
  const target = /^targets\[(\d+)\]/.exec(path);
  const index = target ? Number(target[1]) : -1;
  const channel = target ? (channels?.(index) ?? `channel ${index + 1}`) : '';
  const thread = /thread\[(\d+)\]/.exec(path);
  if (thread) return `Post ${Number(thread[1]) + 2} of the thread${channel && ` on ${channel}`}`;
  const leaf = leafOf(path);
  const label =
    LABELS.get(leaf) ?? capitalized(leaf.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
  return channel && leaf !== 'targets' ? `${label} on ${channel}` : label;
}

/** An API name in words: the form's label, or what a message calls it. */
const nameInWords = (name: string) => IN_MESSAGES.get(name) ?? LABELS.get(name);

/**
 * An issue's message with any API name in it said in words: a camel-cased one (`scheduledAt`),
 * or any in backquotes (`` `to` ``, which would otherwise read as the preposition), and a
 * request it names said as the dashboard names it (components/api-words.ts).
 */
export const messageInWords = (message: string) =>
  capitalized(
    inDashboardWords(message)
      .replace(/`(\w+)`/g, (quoted, name: string) => nameInWords(name) ?? quoted)
      .replace(/\b[a-z]+[A-Z]\w*\b/g, (name) => nameInWords(name) ?? name),
  );

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An issue as a toast says it: its field's name, then the message, unless the message begins
 * with that name itself ("from must not be after `to`."), which is then said once ("From must
 * not be after To."), not "From: From must…".
 */
export function issueInWords(
  issue: { path?: string; message?: string },
  channels?: ChannelNames,
): string {
  const message = issue.message ?? '';
  if (!issue.path) return messageInWords(message);
  const field = fieldInWords(issue.path, channels);
  const leaf = escaped(leafOf(issue.path));
  const named = new RegExp(`^(?:${leaf}|\`${leaf}\`)(?=\\W|$)`);
  if (named.test(message)) return messageInWords(message.replace(named, () => field));
  const said = messageInWords(message);
  const begins = new RegExp(`^${escaped(field)}(?=\\W|$)`, 'i');
  return begins.test(said) ? said : `${field}: ${said}`;
}

/** A failed procedure, as a form shows it: the message, and each invalid field. */
export function formError(error: unknown, channels?: ChannelNames): string {
  const failure = toApiError(error);
  if (failure.code === 'unauthorized') return 'Your session ended: sign in again.';
  const issues = failure.details?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    return issues
      .map((issue: { path?: string; message?: string }) => issueInWords(issue, channels))
      .join(' ');
  }
  return failure.status >= 500
    ? 'Something went wrong; try again.'
    : inDashboardWords(failure.message);
}

/** A refusal as a form with only a message shows it. */
export const refusal = (error: unknown) => ({ error: formError(error) });
