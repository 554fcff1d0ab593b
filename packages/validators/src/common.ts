import { z } from 'zod';

/**
 * A link Chorus keeps or shows: an absolute http(s) URL written out in full (scheme and `//`),
 * never `javascript:`, `data:` or a relative path, whoever gave it (a client, a network).
 */
export const isWebUrl = (value: string) => /^https?:\/\//i.test(value) && URL.canParse(value);

/** ISO 8601 UTC with milliseconds and `Z` (docs/api.md). */
export const ZTimestamp = z.iso.datetime().meta({ example: '2026-11-21T10:00:00.000Z' });

/**
 * Years a timestamp may name, in UTC: the database has no year 0 (1 BC), and past 9999 an ISO
 * timestamp needs six digits and a sign, which no client of docs/api.md reads. `0000-…`,
 * `0001-01-01T00:00+01:00` and `9999-12-31T23:00-05:00` are refused, naming the field.
 */
export const inYearRange = (instant: string) => {
  const time = Date.parse(instant);
  // Text that is no time at all: the format's own issue says so, not a second one of years.
  if (Number.isNaN(time)) return true;
  const year = new Date(time).getUTCFullYear();
  return year >= 1 && year <= 9999;
};
export const YEAR_RANGE_MESSAGE = 'The year must be from 0001 to 9999 (in UTC).';

/** A full timestamp with its zone (`Z` or an offset), as clients send them, years 1 to 9999. */
export const ZZonedTime = z.iso
  // `abort`: text that is no time gets the format's issue alone, not also one of each check
  // after it (its year here, a field's own bounds: "Must not be in the future.").
  .datetime({ offset: true, abort: true })
  .refine(inYearRange, YEAR_RANGE_MESSAGE)
  .meta({ example: '2026-11-21T10:00:00.000Z' });

const ZInstant = z.iso.datetime({ offset: true });

/** `YYYY-MM-DD` naming a real calendar day (2026-02-30 is refused), any year. */
const ZCalendarDay = z
  .string()
  .refine((s) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
    const d = new Date(`${s}T00:00:00.000Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'Must be a real calendar date as YYYY-MM-DD.')
  .meta({ format: 'date' });

/** `YYYY-MM-DD` naming a real calendar day of the years 0001 to 9999. */
export const ZDay = ZCalendarDay.refine((s) => !s.startsWith('0000'), YEAR_RANGE_MESSAGE).meta({
  format: 'date',
  example: '2026-11-21',
});

const isDay = (bound: string) => bound.length === 10;

/**
 * A bound of a list's date range, the one rule for every list: a full timestamp, or a UTC day
 * (`YYYY-MM-DD`) standing for the whole day — a `from` from its first instant, a `to` through
 * its last. Parsed, it is always a timestamp, so the services compare instants only.
 */
export function rangeBound(side: 'from' | 'to', description: string) {
  const time = side === 'from' ? '00:00:00.000' : '23:59:59.999';
  const dayMeans = side === 'from' ? 'from its first instant' : 'through its last instant';
  return (
    z
      // The year is checked once the day is an instant (below), with its own message.
      .union([ZCalendarDay, ZInstant], {
        error: 'Must be a timestamp with a zone (Z or ±hh:mm) or a date as YYYY-MM-DD.',
      })
      .meta({
        description: `${description} A timestamp, or a date \`YYYY-MM-DD\` (the whole UTC day: ${dayMeans}).`,
        example: side === 'from' ? '2026-11-01' : '2026-11-30T23:59:59.999Z',
      })
      .transform((bound) => (isDay(bound) ? `${bound}T${time}Z` : bound))
      // After the day became an instant: `0000-…` and `0001-01-01T00:00+01:00` alike.
      .refine(inYearRange, YEAR_RANGE_MESSAGE)
      .optional()
  );
}

/**
 * page/limit query parameters, or a cursor: out-of-range values are refused, never clamped.
 * A cursor with a page beyond 1 is refused by the list (a refinement here could not be extended).
 */
export const paginationQuery = (defaultLimit: number) =>
  z.object({
    page: z.number().int().min(1).default(1).meta({ description: 'Page number, 1-based.' }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(defaultLimit)
      .meta({ description: `Results per page, 1 to 100 (default ${defaultLimit}).` }),
    startingAfter: z
      .string()
      .min(1)
      .max(100)
      .meta({
        description:
          "An item id of the list (the account's, whether the filters keep it or not): the page is the `limit` items after its place in the list's order, at the same cost however deep. Start from the last id of any page, or follow `meta.pagination.nextCursor` (or the `Link` header's `rel=\"next\"`). Not with `page` beyond 1.",
      })
      .optional(),
  });

export const ZErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().meta({ example: 'resource_not_found' }),
      message: z.string().meta({ example: 'User not found.' }),
      status: z.number().int().meta({ example: 404 }),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error', description: 'Every error answers in this envelope.' });
