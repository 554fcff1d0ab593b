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
 * Text from a third party (a profile's name), kept as one clean line: control characters and
 * line breaks become spaces, runs of spaces one, and the ends are trimmed.
 */
export const cleanLine = (text: string) =>
  text
    .replace(new RegExp(`${NUL.source}|${CONTROL.source}|${LINE.source}`, 'g'), ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
