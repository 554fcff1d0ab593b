import { accounts, asc, eq, inArray, postTargets } from '@chorus/db';
import { isLockedTarget, RRule } from '@chorus/validators';
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
const HOUR_MS = 3_600_000;
/** rrule's walks need an end: a series with neither COUNT nor UNTIL runs to here. */
const END_OF_TIME = new Date(Date.UTC(9999, 11, 31));

type RuleOptions = ReturnType<typeof RRule.parseString>;

/**
 * The same rule started at an occurrence period on or before `wall`, at least one period before
 * it: rrule walks every occurrence from its start, so a daily series two years old took 6 ms a
 * call; from here it walks a few. Whole periods keep INTERVAL's rhythm and BYDAY's days; a
 * monthly rule without BYDAY keeps its day of the month explicitly (the 31st skips short
 * months). COUNT counts from the real start, so such a rule (at most 1,000) is walked whole.
 */
function startedNear(options: RuleOptions, startWall: Date, wall: Date): RRule {
  const whole = () => new RRule({ ...options, dtstart: startWall });
  if (options.count != null || wall <= startWall) return whole();
  const interval = options.interval ?? 1;
  if (options.freq === RRule.MONTHLY) {
    const months = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
    const periods = Math.floor((months(wall) - months(startWall)) / interval) - 1;
    if (periods <= 0) return whole();
    const month = months(startWall) + periods * interval;
    const dtstart = new Date(
      Date.UTC(
        Math.floor(month / 12),
        month % 12,
        1,
        startWall.getUTCHours(),
        startWall.getUTCMinutes(),
        startWall.getUTCSeconds(),
        startWall.getUTCMilliseconds(),
      ),
    );
    const byDay = options.byweekday != null;
    return new RRule({
      ...options,
      dtstart,
      ...(!byDay && { bymonthday: [startWall.getUTCDate()] }),
    });
  }
  // Floating time has no clock changes: a day is always DAY_MS.
  const period = (options.freq === RRule.WEEKLY ? 7 : 1) * interval * DAY_MS;
  const periods = Math.floor((wall.getTime() - startWall.getTime()) / period) - 1;
  if (periods <= 0) return whole();
  return new RRule({ ...options, dtstart: new Date(startWall.getTime() + periods * period) });
}

/**
 * RFC 5545 lets a MONTHLY rule mix plain and numbered days: `BYDAY=MO,2TU` is every Monday of
 * the month and its second Tuesday. rrule (after python-dateutil) keeps the two kinds apart and
 * wants a day to match both, so such a rule never fires. A plain day in a monthly rule is each
 * of its numbered ones, 1st to 5th (rrule skips a 5th that a month lacks), which rrule reads
 * as the RFC does; a rule of plain days only is left as it is.
 */
function withPlainDaysNumbered(options: RuleOptions): RuleOptions {
  const days = options.byweekday;
  if (options.freq !== RRule.MONTHLY || !Array.isArray(days)) return options;
  const weekdays = days.filter((day) => typeof day === 'object');
  const numbered = (day: (typeof weekdays)[number]) => day.n != null && day.n !== 0;
  if (weekdays.length !== days.length || !weekdays.some(numbered)) return options;
  const byweekday = weekdays.flatMap((day) =>
    numbered(day) ? [day] : [1, 2, 3, 4, 5].map((n) => day.nth(n)),
  );
  return { ...options, byweekday };
}

/** RFC 5545's weekdays in rrule's order, Monday first. */
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/**
 * A DAILY rule whose INTERVAL is a whole number of weeks visits only its start's weekday, so
 * with BYDAY either every day it visits is one BYDAY names or none is. rrule stops a walk only
 * at a day its rule picks (for COUNT, UNTIL or the end of the range asked for), so a rule that
 * picks none (`FREQ=DAILY;INTERVAL=7;BYDAY=TU` started on a Monday) was walked a week at a time
 * up to the year 9999, whatever its COUNT or UNTIL: seconds at each read of the post. Every
 * other rule of the subset picks a day within a few dozen periods (a monthly fifth Monday of
 * February, the rarest, within 40 years). Answers the rule as rrule can walk it: BYDAY left
 * out when it names that weekday (it picks every day visited), null when it does not (the
 * rule picks no day).
 */
function withoutIdleWalk(options: RuleOptions, startWall: Date): RuleOptions | null {
  const { byweekday, freq, interval } = options;
  if (freq !== RRule.DAILY || byweekday == null || (interval ?? 1) % 7 !== 0) return options;
  // rrule numbers weekdays from Monday (0), Date from Sunday (0).
  const weekday = (startWall.getUTCDay() + 6) % 7;
  const numbered = (day: Exclude<typeof byweekday, unknown[]>) =>
    typeof day === 'number' ? day : typeof day === 'string' ? WEEKDAYS.indexOf(day) : day.weekday;
  const picks = [byweekday].flat().some((day) => numbered(day) === weekday);
  return picks ? { ...options, byweekday: null } : null;
}

/**
 * A post's series: `rule` (as the edge let it through) read in `timeZone` from `start`.
 * `UNTIL` with `Z` is an instant; a date alone takes in that whole local day.
 *
 * `start` (the post's `scheduledAt`) is always the first occurrence, as DTSTART is in RFC 5545,
 * even when the rule would not pick it (a weekly Tuesday rule started on a Monday): whoever
 * picks a start expects a post then. As in the RFC it is one of `COUNT`'s occurrences. rrule
 * itself only yields the days its rule picks, so such a start is added here.
 */
export function seriesOf(rule: string, start: Date, timeZone: string) {
  const options = withPlainDaysNumbered(RRule.parseString(rule));
  if (options.until) {
    const until = options.until;
    if (/UNTIL=\d{8}T\d{6}Z/.test(rule)) options.until = floating(until, timeZone);
    else if (/UNTIL=\d{8}(;|$)/.test(rule)) options.until = new Date(until.getTime() + DAY_MS - 1);
  }
  const startWall = floating(start, timeZone);
  const walked = withoutIdleWalk(options, startWall);
  const picked = walked && new RRule({ ...walked, dtstart: startWall }).after(startWall, true);
  /** The start when the rule does not pick it: an occurrence before all of the rule's own. */
  const extra = picked?.getTime() === startWall.getTime() ? null : start;
  // The start counted, the rule has one occurrence fewer left; none at all after COUNT=1, nor
  // when it picks no day.
  const ruleEnded = walked === null || (extra !== null && walked.count === 1);
  if (walked && extra && walked.count != null && !ruleEnded) walked.count -= 1;
  const near = (wall: Date) => walked && startedNear(walked, startWall, wall);
  const toInstant = (wall: Date | null) => (wall ? instant(wall, timeZone) : null);
  const extraWithin = (from: Date, to?: Date) =>
    extra !== null && extra >= from && (!to || extra <= to);
  return {
    /**
     * Whether `UNTIL` ends the series before its start: it would have no occurrence but the
     * start, which is never what its author meant.
     */
    endsBeforeStart: options.until != null && options.until < startWall,
    /** The latest occurrence from `from` to `to` (both included), if any. */
    latestBetween(from: Date, to: Date): Date | null {
      if (!ruleEnded) {
        // Started before `from`: every occurrence from `from` to `to` is in its walk.
        const walk = near(floating(from, timeZone));
        const at = toInstant(walk?.before(floating(to, timeZone), true) ?? null);
        if (at && at >= from && at <= to) return at;
      }
      // The added start comes before every occurrence of the rule: latest only when alone.
      return extraWithin(from, to) ? extra : null;
    },
    /**
     * Up to `count` occurrences at or after `at`, up to `to` (included) when given, soonest
     * first: the added start, then one walk of the rule from a start near `at`.
     */
    upcoming(at: Date, count: number, to?: Date): Date[] {
      const found: Date[] = extra && extraWithin(at, to) ? [extra] : [];
      if (ruleEnded || found.length >= count) return found;
      const from = floating(at, timeZone);
      // A wall time up to the longest clock change after `to` may still come before it.
      const end = to ? new Date(floating(to, timeZone).getTime() + 2 * HOUR_MS) : END_OF_TIME;
      near(from)?.between(from, end, true, (wall) => {
        // Around a clock change two instants share a wall time: keep the one not before `at`.
        const occurrence = instant(wall, timeZone);
        if (occurrence >= at && (!to || occurrence <= to)) found.push(occurrence);
        return found.length < count;
      });
      return found;
    },
    /** The first occurrence at or after `at`; null when the series has ended by then. */
    firstFrom(at: Date): Date | null {
      return this.upcoming(at, 1)[0] ?? null;
    },
    /** Every occurrence after `from` up to `to` (included), soonest first. */
    between(from: Date, to: Date): Date[] {
      return this.upcoming(new Date(from.getTime() + 1), Number.POSITIVE_INFINITY, to);
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

/** One account's time zone (UTC for an account that is gone). */
export async function timeZoneOf(db: Reader, accountId: string) {
  return (await timeZonesOf(db, [accountId])).get(accountId) ?? 'UTC';
}

export interface SeriesFields {
  accountId: string;
  status: string;
  recurrence: string | null;
  scheduledAt: Date | null;
}

/**
 * A post's series, if it has a rule and a start. A rule whose `UNTIL` comes before the start is
 * 400 naming `recurrence`: the series would end before it began (`FREQ=DAILY;UNTIL=20200101`),
 * a mistake rather than a one-off. Whatever the post's status, so that such a rule is refused
 * when it is written (create, update, submit), not when an admin approves it.
 */
export async function startedSeries(db: Reader, post: Omit<SeriesFields, 'status'>) {
  if (!post.recurrence || !post.scheduledAt) return null;
  const series = seriesOf(post.recurrence, post.scheduledAt, await timeZoneOf(db, post.accountId));
  if (!series.endsBeforeStart) return series;
  throw invalid(
    'recurrence',
    'UNTIL is before scheduledAt, the first occurrence: the series would end before it starts.',
  );
}

/**
 * The next occurrence a post's series waits for after a write: its start, or, once started,
 * the first from now (a rule edited mid-series changes later occurrences only, it never
 * publishes a past one). Null when the post is no scheduled series, or its rule has ended.
 * Every write of a rule or a start comes through here, so each is checked (startedSeries).
 */
export async function nextOccurrenceOf(db: Reader, post: SeriesFields, now: Date) {
  const series = await startedSeries(db, post);
  if (!series || post.status !== 'scheduled' || !post.scheduledAt) return null;
  return series.firstFrom(post.scheduledAt > now ? post.scheduledAt : now);
}

/**
 * A rule changes while no occurrence is settled by it: a draft, pending or scheduled post. A
 * post that went to a channel, or may have (a locked target: published, unconfirmed), never
 * takes one: each occurrence copies its targets as new ones, so every copy would go to that
 * channel again (docs/workflow.md#recurring-posts). Both are refused naming `recurrence`, as a
 * rule the post cannot have; taking the rule off (null) is always allowed.
 */
export async function assertRecurrenceEditable(tx: Reader, row: PostRow, rule: string | null) {
  if (!['draft', 'pending_approval', 'scheduled'].includes(row.status)) {
    throw invalid(
      'recurrence',
      `The recurrence of a ${row.status} post cannot change; it can while it is a draft, pending approval or scheduled.`,
    );
  }
  if (rule === null) return;
  const targets = await tx
    .select({ id: postTargets.id, channelId: postTargets.channelId, status: postTargets.status })
    .from(postTargets)
    .where(eq(postTargets.postId, row.id))
    .orderBy(asc(postTargets.position));
  const sent = targets.filter(isLockedTarget);
  if (sent.length === 0) return;
  const which = sent.map((t) => `${t.id} (channel ${t.channelId}, ${t.status})`).join(', ');
  throw invalid(
    'recurrence',
    `This post went out, or may have, to some of its channels (target ${which}): as a series, every occurrence would go out there again. Make a new post to repeat it.`,
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
