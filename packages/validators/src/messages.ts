import { z } from 'zod';

/**
 * zod's messages for the checks every schema shares, in the words of the API's own messages
 * ("Must be …"), for a client's developer and for the dashboard's field errors: zod's
 * `Too big: expected number to be <=100` reads "Must be at most 100.". A schema's own message
 * still wins; an issue not worded here keeps zod's. Installed for the whole process by
 * importing @chorus/validators (its index imports this first).
 */

type Issue = z.core.$ZodRawIssue;

const KINDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  // A map of names to values (`properties`): to a client, a JSON object like any other.
  record: 'an object',
  array: 'a list',
  date: 'a date',
  bigint: 'an integer',
};

const FORMATS: Record<string, string> = {
  email: 'an email address',
  url: 'a URL',
  datetime: 'an ISO 8601 date and time, such as 2026-12-01T09:30:00Z',
  date: 'an ISO 8601 date, such as 2026-12-01',
  time: 'an ISO 8601 time, such as 09:30',
  duration: 'an ISO 8601 duration, such as P1D',
  uuid: 'a UUID',
  base64: 'base64 text',
  base64url: 'base64url text',
};

/** What a size counts, one and many, by the kind of value measured. */
const UNITS: Record<string, [string, string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  map: ['entry', 'entries'],
  file: ['byte', 'bytes'],
};

const shown = (value: unknown) => (typeof value === 'string' ? value : String(value));

/** A bound broken: `at most 100`, `less than 5`, `exactly 3 characters`; a date's as ISO text. */
function size(
  issue: { origin?: string; exact?: boolean; inclusive?: boolean },
  limit: unknown,
  most: boolean,
): string {
  const relation = issue.exact
    ? 'exactly'
    : issue.inclusive === false
      ? most
        ? 'less than'
        : 'more than'
      : most
        ? 'at most'
        : 'at least';
  const value = issue.origin === 'date' ? new Date(Number(limit)).toISOString() : shown(limit);
  const units = issue.origin === undefined ? undefined : UNITS[issue.origin];
  if (!units) return `Must be ${relation} ${value}.`;
  const unit = units[Number(limit) === 1 ? 0 : 1];
  return issue.origin === 'string'
    ? `Must be ${relation} ${value} ${unit} long.`
    : `Must have ${relation} ${value} ${unit}.`;
}

/**
 * A value no option of a union took (`"nope"` for an event type or `"*"`): when each option
 * is a choice of values, one message listing them all; else zod's.
 */
function unionMessage(options: z.core.$ZodIssue[][]): string | undefined {
  const refusals = options.map(([issue, ...more]) =>
    issue && more.length === 0 && issue.path.length === 0 ? issue : undefined,
  );
  if (refusals.length === 0) return undefined;
  if (refusals.every((issue) => issue?.code === 'invalid_value')) {
    const values = refusals.flatMap((issue) =>
      issue?.code === 'invalid_value' ? issue.values : [],
    );
    return `Must be one of ${values.map(shown).join(', ')}.`;
  }
  return undefined;
}

function issueMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'Required.';
      const kind = KINDS[issue.expected];
      return kind ? `Must be ${kind}.` : undefined;
    }
    case 'invalid_value':
      // One value (a literal) quoted when it is text; a list of options as they are.
      return issue.values.length === 1
        ? `Must be ${typeof issue.values[0] === 'string' ? JSON.stringify(issue.values[0]) : shown(issue.values[0])}.`
        : `Must be one of ${issue.values.map(shown).join(', ')}.`;
    case 'too_big':
      return size(issue, issue.maximum, true);
    case 'too_small':
      // A required text given empty: the most common case, said plainly.
      if (issue.origin === 'string' && issue.minimum === 1 && !issue.exact) {
        return 'Must not be empty.';
      }
      return size(issue, issue.minimum, false);
    case 'invalid_format': {
      const format = FORMATS[issue.format];
      return format ? `Must be ${format}.` : undefined;
    }
    case 'not_multiple_of':
      return `Must be a multiple of ${shown(issue.divisor)}.`;
    case 'invalid_union':
      return unionMessage(issue.errors);
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    default:
      return undefined;
  }
}

z.config({ customError: issueMessage });
