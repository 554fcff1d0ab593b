import { accounts, inArray } from '@chorus/db';
import { RRule } from '@chorus/validators';
import { DateTime } from 'luxon';
import type { PostRow, Reader } from './records';
import { invalid } from './rules';

/**
 * rrule computes in "floating" time: the wall clock of the account's zone written as UTC. A
 * weekly 09:00 then stays 09:00 local across a daylight-saving change, which rrule's own
 * time-zone support gets wrong in places; luxon converts each way.
 */
function floating(at: Date, timeZone: string): Date {
  const d = DateTime.fromJSDate(at, { zone: timeZone });
  return new Date(Date.UTC(d.year, d.month - 1, d.day, d.hour, d.minute, d.second, d.millisecond));
}

/** A wall-clock time to its instant; one the clocks skip comes an hour later (luxon). */
function instant(wall: Date, timeZone: string): Date {
  return DateTime.fromObject(
    {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
      millisecond: wall.getUTCMilliseconds(),
    },
    { zone: timeZone },
  ).toJSDate();
}

const DAY_MS = 86_400_000;

/**
 * A post's series: `rule` (as the edge let it through) read in `timeZone` from `start`, its
 * first occurrence. `UNTIL` with `Z` is an instant; a date alone takes in that whole local day.
 */
export function seriesOf(rule: string, start: Date, timeZone: string) {
  const options = RRule.parseString(rule);
  if (options.until) {
    const until = options.until;
    if (/UNTIL=\d{8}T\d{6}Z/.test(rule)) options.until = floating(until, timeZone);
    else if (/UNTIL=\d{8}(;|$)/.test(rule)) options.until = new Date(until.getTime() + DAY_MS - 1);
  }
  const rrule = new RRule({ ...options, dtstart: floating(start, timeZone) });
  const toInstant = (wall: Date | null) => (wall ? instant(wall, timeZone) : null);
  return {
    /** The latest occurrence from `from` to `to` (both included), if any. */
    latestBetween(from: Date, to: Date): Date | null {
      const at = toInstant(rrule.before(floating(to, timeZone), true));
      return at && at >= from && at <= to ? at : null;
    },
    /** The first occurrence at or after `at`; null when the series has ended by then. */
    firstFrom(at: Date): Date | null {
      const wall = rrule.after(floating(at, timeZone), true);
      // Around a clock change two instants share a wall time: keep the one not before `at`.
      const found = toInstant(wall);
      if (!found || found >= at) return found;
      return toInstant(rrule.after(wall as Date, false));
    },
    /** Up to `count` occurrences at or after `at`, soonest first. */
    upcoming(at: Date, count: number): Date[] {
      const found: Date[] = [];
      let next = this.firstFrom(at);
      while (next && found.length < count) {
        found.push(next);
        next = this.firstFrom(new Date(next.getTime() + 1));
      }
      return found;
    },
  };
}

/** The time zone of each account, in one query. */
export async function timeZonesOf(db: Reader, accountIds: string[]) {
  const zones = new Map<string, string>();
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return zones;
  const rows = await db
    .select({ id: accounts.id, timeZone: accounts.timeZone })
    .from(accounts)
    .where(inArray(accounts.id, ids));
  for (const row of rows) zones.set(row.id, row.timeZone);
  return zones;
}

export interface SeriesFields {
  accountId: string;
  status: string;
  recurrence: string | null;
  scheduledAt: Date | null;
}

/**
 * The next occurrence a post's series waits for after a write: its start, or, once started,
 * the first from now (a rule edited mid-series changes later occurrences only, it never
 * publishes a past one). Null when the post is no scheduled series, or its rule has ended.
 */
export async function nextOccurrenceOf(db: Reader, post: SeriesFields, now: Date) {
  if (post.status !== 'scheduled' || !post.recurrence || !post.scheduledAt) return null;
  const zone = (await timeZonesOf(db, [post.accountId])).get(post.accountId) ?? 'UTC';
  const series = seriesOf(post.recurrence, post.scheduledAt, zone);
  return series.firstFrom(post.scheduledAt > now ? post.scheduledAt : now);
}

/** A rule changes while no occurrence is settled by it: a draft, pending or scheduled post. */
export function assertRecurrenceEditable(row: PostRow) {
  if (['draft', 'pending_approval', 'scheduled'].includes(row.status)) return;
  throw invalid(
    'recurrence',
    `The recurrence of a ${row.status} post cannot change; it can while it is a draft or scheduled.`,
  );
}

/**
 * The series' next occurrence after an update: kept unless its status, start or rule changed
 * (an occurrence due this instant is still the sweep's), else worked out again.
 */
export async function nextOccurrenceAfter(
  tx: Reader,
  row: PostRow,
  update: { status: PostRow['status']; recurrence: string | null; changes: Partial<PostRow> },
  now: Date,
) {
  const { status, recurrence, changes } = update;
  const scheduledAt = changes.scheduledAt === undefined ? row.scheduledAt : changes.scheduledAt;
  const same =
    status === row.status &&
    recurrence === row.recurrence &&
    scheduledAt?.getTime() === row.scheduledAt?.getTime();
  if (same) return row.nextOccurrenceAt;
  return nextOccurrenceOf(tx, { accountId: row.accountId, status, recurrence, scheduledAt }, now);
}
