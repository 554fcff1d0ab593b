import type { z } from 'zod';

/**
 * Control characters, the one rule for text from outside (issue 20): U+0000 (which PostgreSQL's
 * text and jsonb cannot hold), the other C0 controls, DEL and the C1 controls. Tab, line feed
 * and carriage return are text in multi-line fields (a post's content) and nowhere else.
 */
const NUL = /\0/;
// Matching control characters is this expression's purpose.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE = /[\t\n\r]/;

export const NUL_MESSAGE = 'Must not contain NUL characters.';
export const CONTROL_MESSAGE = 'Must not contain control characters.';
export const SINGLE_LINE_MESSAGE = 'Must be one line, without tabs or line breaks.';

/**
 * What is wrong with `text` as input, or null: a NUL, or another control character. Tabs and
 * line breaks pass here (they are refused per field, by `singleLine`).
 */
export function controlProblem(text: string): string | null {
  if (NUL.test(text)) return NUL_MESSAGE;
  if (CONTROL.test(text)) return CONTROL_MESSAGE;
  return null;
}

// Every C0 and C1 control character, tab and line breaks included.
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;

/** Whether `text` holds any control character, tab and line breaks included (no id does). */
export const hasAnyControl = (text: string) => text.search(ANY_CONTROL) !== -1;

/**
 * `text` with each control character, tab and line breaks included, written as a `\uXXXX` escape
 * (`\u000A`): for printing text stored before its field refused them, where a raw line break
 * would split a table's row and an escape sequence drive the reader's terminal.
 */
export const escapeControls = (text: string) =>
  text.replace(
    ANY_CONTROL,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );

/**
 * An issue's `path` as the API writes it (`meta.constructor`, `events[0].type`,
 * `targets[1].content`): names joined by dots, an item of a list by its index in brackets, and
 * each control character escaped as JSON writes it (`\u0000`). A path may hold a client's own
 * key, refused for the very NUL or line break in it: echoed raw, that character would reach the
 * client's logs and terminals, and a NUL cut a C string short.
 */
export const issuePath = (path: readonly PropertyKey[]) =>
  escapeControls(
    path
      .map((segment, i) =>
        typeof segment === 'number' ? `[${segment}]` : `${i === 0 ? '' : '.'}${String(segment)}`,
      )
      .join(''),
  );

/** A field that is one line of text (a name, a title, a tag): no tab, no line break. */
export const singleLine = <T extends z.ZodType<string>>(schema: T) =>
  schema.refine((text) => !LINE.test(text), SINGLE_LINE_MESSAGE);

/**
 * The bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 * reorder the text after them as it is shown: a name holding U+202E reads backwards, and
 * drags what a page shows next to it along (Trojan Source). Marks (U+200E, U+200F) only
 * set the direction of neutral characters and stay.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/g;
/** The Unicode line and paragraph separators: line breaks to a renderer. */
const SEPARATOR = /[\u2028\u2029]/;

/**
 * Text from a third party (a profile's name), kept as one clean line (oneLine: control
 * characters and line breaks spaces, bidirectional controls dropped, a lone surrogate U+FFFD),
 * runs of spaces one, the ends trimmed.
 */
export const cleanLine = (text: string) => oneLine(text).replace(/ {2,}/g, ' ').trim();

// Half of a UTF-16 pair without its other half (JSON's "\ud800" reads as one): jsonb refuses it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const BREAKING = new RegExp(
  `${NUL.source}|${CONTROL.source}|${LINE.source}|${SEPARATOR.source}`,
  'g',
);

/**
 * Third-party text made one line that PostgreSQL can store and a terminal or a page shows as
 * it reads: a lone surrogate U+FFFD, bidirectional controls dropped, every control character
 * and line break a space (cleanLine and cleanMessage, the one rule for both).
 */
const oneLine = (text: string) =>
  text.replace(LONE_SURROGATE, '\uFFFD').replace(BIDI_CONTROL, '').replace(BREAKING, ' ');

/** Shorter secrets are not looked for: they would match ordinary words. */
const MIN_SECRET = 8;

export const MESSAGE_MAX = 500;
export const REDACTED = '[redacted]';

/**
 * Words a third party sent (a network's error message, an instance's refusal, an error's
 * details for the log), as Chorus stores, shows and logs them: one line, each control
 * character a space (C0 and C1: NUL, which PostgreSQL cannot hold, ESC and CSI, which drive a
 * terminal, line breaks), bidirectional overrides and isolates removed, a lone surrogate
 * U+FFFD; then each of `secrets` (a channel's tokens, which a network may echo) replaced by
 * `[redacted]`, as it is or URL-encoded; then runs of spaces one, the ends trimmed, and at most
 * `max` characters, the last an ellipsis when cut. The one rule for such words
 * (docs/security.md, "Words from networks").
 */
export function cleanMessage(
  text: string,
  options: { secrets?: readonly string[]; max?: number } = {},
): string {
  const { secrets = [], max = MESSAGE_MAX } = options;
  let clean = oneLine(text);
  const hidden = secrets
    .filter((secret) => secret.length >= MIN_SECRET)
    .flatMap((secret) => [secret, encodeURIComponent(secret)])
    // The longer first: a secret holding another is hidden whole.
    .sort((a, b) => b.length - a.length);
  for (const secret of hidden) clean = clean.split(secret).join(REDACTED);
  clean = clean.replace(/ {2,}/g, ' ').trim();
  if (clean.length <= max) return clean;
  const chars = Array.from(clean);
  if (chars.length <= max) return clean;
  const kept = chars.slice(0, max - 1).join('');
  return `${kept.trimEnd()}…`;
}

/**
 * What a thrown error says, fit to store and log: the innermost cause's message, cleaned
 * (cleanMessage). A query's error (drizzle's "Failed query: … params: …") carries the query
 * and its values, which may be a secret or a NUL; its cause is what the database answered.
 */
export function errorReason(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return cleanMessage(current instanceof Error ? current.message : String(error));
}

/** Whether `text` holds a bidirectional control (an id never does). */
export const hasBidiControl = (text: string) => text.search(BIDI_CONTROL) !== -1;

/**
 * `text` in at most `max` UTF-16 units (JavaScript's `length`): longer, it is cut at the last
 * whole character (a grapheme: an emoji, a letter and its accents) that leaves room for `…`.
 */
export function clipLine(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = '';
  // Made here, not as the module loads: the dashboard's browsers load this module too.
  const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
  // Only the first `max` units are read: the last grapheme there may be cut, and is dropped.
  const parts = [...graphemes.segment(text.slice(0, max))].map((part) => part.segment);
  parts.pop();
  for (const part of parts) {
    if (kept.length + part.length > max - 1) break;
    kept += part;
  }
  return `${kept.trimEnd()}…`;
}
