import type { Principal } from '@chorus/auth';
import {
  and,
  channels,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  postTargets,
  posts,
  type Db,
} from '@chorus/db';
import {
  WEEKDAYS,
  type ChannelSlots,
  type NextSlot,
  type NextSlotQuery,
  type PutSlotsInput,
  type Slot,
} from '@chorus/validators';
import { DateTime } from 'luxon';
import { notFound } from '../shared/errors';
import { seriesOf, timeZoneOf } from '../posts/recurrence';
import { invalid } from '../posts/rules';
import { channelsToSend, targetToSend } from '../posts/to-send';
import type { Tx } from '../posts/tx';

/** How far ahead `next_slot` looks for a free slot, and `upcoming` lists them. */
const SEARCH_DAYS = 56;
const UPCOMING_DAYS = 28;
const UPCOMING_MAX = 10;

/** Statuses in which a post holds its `scheduledAt`: a slot it sits on is taken. */
const HOLDING = ['scheduled', 'pending_approval', 'publishing'] as const;

/** The column holds what ZPutSlots let through. */
const slotsOf = (row: { slots: unknown }) => row.slots as Slot[];
const order = (slot: Slot) => `${WEEKDAYS.indexOf(slot.day)} ${slot.time}`;
const sorted = (slots: Slot[]) => [...slots].sort((a, b) => order(a).localeCompare(order(b)));

/**
 * The instants of weekly `slots` in `timeZone` after `from`, soonest first, over `days` days.
 * Wall-clock times: across a daylight-saving change a slot keeps its local time. A time the
 * change skips (02:30 when clocks go forward) comes an hour later; a time it repeats is taken
 * once, in standard time (luxon's reading, the second pass).
 */
export function slotInstants(slots: Slot[], timeZone: string, from: Date, days: number): Date[] {
  const start = DateTime.fromJSDate(from, { zone: timeZone }).startOf('day');
  const instants: Date[] = [];
  for (let d = 0; d <= days; d++) {
    const date = start.plus({ days: d });
    const day = WEEKDAYS[date.weekday - 1];
    for (const slot of sorted(slots).filter((s) => s.day === day)) {
      const [hour, minute] = slot.time.split(':').map(Number);
      const at = DateTime.fromObject(
        { year: date.year, month: date.month, day: date.day, hour, minute },
        { zone: timeZone },
      ).toJSDate();
      if (at > from) instants.push(at);
    }
  }
  return instants;
}

/**
 * The instants some post on one of `channelIds` holds in (`from`, `to`]: a one-off post its
 * `scheduledAt`; a series every occurrence of its rule in the window, and the one it waits for
 * (kept when the account's zone changed), so a slot is never handed out under a later copy.
 * A post holds the slot of a channel only by a target it will send there: a locked target is
 * never sent again, nor copied into a series' occurrences (targetToSend).
 * Rules are read in `timeZone`, the account's, which the callers already have.
 */
async function takenInstants(
  db: Db | Tx,
  accountId: string,
  channelIds: string[],
  window: { from: Date; to: Date; timeZone: string; exceptPostId?: string },
) {
  const rows = await db
    .selectDistinct({
      id: posts.id,
      at: posts.scheduledAt,
      recurrence: posts.recurrence,
      next: posts.nextOccurrenceAt,
    })
    .from(posts)
    .innerJoin(postTargets, eq(postTargets.postId, posts.id))
    .where(
      and(
        eq(posts.accountId, accountId),
        inArray(postTargets.channelId, channelIds),
        targetToSend(),
        inArray(posts.status, [...HOLDING]),
        lte(posts.scheduledAt, window.to),
        or(gt(posts.scheduledAt, window.from), isNotNull(posts.recurrence)),
        // A scheduled series with no next occurrence has ended (its COUNT or UNTIL is past):
        // none of it is ahead, and walking its rule, from its start when COUNT counts from
        // there, cost up to a tenth of a second a series at every read of the channel's slots.
        or(
          ne(posts.status, 'scheduled'),
          isNull(posts.recurrence),
          isNotNull(posts.nextOccurrenceAt),
        ),
        window.exceptPostId ? ne(posts.id, window.exceptPostId) : undefined,
      ),
    );
  const taken = new Set<number>();
  const take = (at: Date | null) => {
    if (at && at > window.from && at <= window.to) taken.add(at.getTime());
  };
  for (const row of rows) {
    take(row.at);
    take(row.next);
    if (!row.recurrence || !row.at) continue;
    seriesOf(row.recurrence, row.at, window.timeZone).between(window.from, window.to).forEach(take);
  }
  return taken;
}

async function findChannel(db: Db | Tx, principal: Principal, id: string) {
  const [row] = await db
    .select({ id: channels.id, slots: channels.slots })
    .from(channels)
    .where(and(eq(channels.id, id), eq(channels.accountId, principal.accountId)));
  if (!row) throw notFound('Channel');
  return row;
}

async function describe(db: Db | Tx, principal: Principal, id: string, slots: Slot[]) {
  const timeZone = await timeZoneOf(db, principal.accountId);
  const now = new Date();
  const instants = slotInstants(slots, timeZone, now, UPCOMING_DAYS).slice(0, UPCOMING_MAX);
  const last = instants.at(-1);
  const taken = last
    ? await takenInstants(db, principal.accountId, [id], { from: now, to: last, timeZone })
    : new Set<number>();
  return {
    channelId: id,
    timeZone,
    slots: sorted(slots),
    upcoming: instants.map((at) => ({ at: at.toISOString(), free: !taken.has(at.getTime()) })),
  } satisfies ChannelSlots;
}

/** `GET /api/content/channels/{id}/slots`: the channel's weekly slots and the next ones. */
export async function getChannelSlots(opts: { db: Db; principal: Principal; id: string }) {
  const channel = await findChannel(opts.db, opts.principal, opts.id);
  return describe(opts.db, opts.principal, channel.id, slotsOf(channel));
}

/** `PUT …/slots`: replaces the channel's slots (posts already scheduled keep their time). */
export async function putChannelSlots(opts: {
  db: Db;
  principal: Principal;
  id: string;
  input: PutSlotsInput;
}) {
  const { db, principal, id, input } = opts;
  const slots = sorted(input.slots);
  const [row] = await db
    .update(channels)
    .set({ slots })
    .where(and(eq(channels.id, id), eq(channels.accountId, principal.accountId)))
    .returning({ id: channels.id });
  if (!row) throw notFound('Channel');
  return describe(db, principal, id, slots);
}

const noSlot = (message: string) => invalid('schedule', message);

interface SlotSearch {
  accountId: string;
  /** Each once: the channels its targets will send to (channelsToSend). */
  channelIds: string[];
  /** The post has targets, but every one is locked: none will be sent. */
  sentAlready?: boolean;
  /** The post being (re)scheduled: the slot it holds now does not count as taken. */
  postId?: string;
  recurrence?: string | null;
  now: Date;
}

/** The free slot found, or why there is none (in words for whoever asked for one). */
type Found = { timeZone: string } & ({ at: Date } | { refused: string });

/**
 * The weekly slots of each of the account's channels among `channelIds` (none for a channel
 * not found); with `lock`, the channels stay locked until the transaction ends.
 */
async function slotsOfChannels(db: Db | Tx, accountId: string, ids: string[], lock: boolean) {
  if (ids.length === 0) return [];
  const query = db
    .select({ slots: channels.slots })
    .from(channels)
    .where(and(eq(channels.accountId, accountId), inArray(channels.id, ids)))
    .orderBy(channels.id);
  return (await (lock ? query.for('update') : query)).map(slotsOf);
}

/**
 * The earliest slot, within eight weeks, that every channel has (`channelSlots`, one list per
 * channel found) and that no other post of those channels holds, nor, for a series
 * (`recurrence`), any of its later occurrences within those weeks.
 */
async function searchFreeSlot(
  db: Db | Tx,
  opts: SlotSearch,
  channelSlots: Slot[][],
): Promise<Found> {
  const { accountId, channelIds, now } = opts;
  const timeZone = await timeZoneOf(db, accountId);
  const refuse = (refused: string) => ({ refused, timeZone });
  if (channelIds.length === 0) {
    return refuse(
      opts.sentAlready
        ? 'Every target of this post went out, or may have, and is never sent again: none takes a posting slot. Add a channel to take its next free slot, or give scheduledAt.'
        : 'Posting slots are per channel: choose at least one channel for the post (its targets) to take the next free slot.',
    );
  }
  // Missing channels are the targets' check to report; here they have no slots.
  const sets = channelSlots.map((slots) => new Set(slots.map(order)));
  const shared =
    channelSlots.length === channelIds.length
      ? (channelSlots[0] ?? []).filter((slot) => sets.every((set) => set.has(order(slot))))
      : [];
  if (shared.length === 0) {
    return refuse(
      channelIds.length === 1
        ? 'This channel has no posting slots: set some on its page under Integrations, or with PUT /api/content/channels/{id}/slots.'
        : "The post's channels have no posting slot in common.",
    );
  }
  const instants = slotInstants(shared, timeZone, now, SEARCH_DAYS);
  const last = instants.at(-1) ?? now;
  const taken = await takenInstants(db, accountId, channelIds, {
    from: now,
    to: last,
    timeZone,
    exceptPostId: opts.postId,
  });
  const { recurrence } = opts;
  const isFree = (at: Date) => {
    if (taken.has(at.getTime())) return false;
    if (!recurrence) return true;
    const later = seriesOf(recurrence, at, timeZone).between(at, last);
    return later.every((next) => !taken.has(next.getTime()));
  };
  const free = instants.find(isFree);
  if (free) return { at: free, timeZone };
  return refuse(
    recurrence
      ? 'No shared posting slot of the next eight weeks is free at every occurrence of the series.'
      : 'Every shared posting slot of the next eight weeks is taken.',
  );
}

/**
 * `schedule: "next_slot"`: the slot `searchFreeSlot` finds, refused as the `schedule` field's
 * fault when there is none. The channels are locked until the transaction ends, so two posts
 * asking at once never get the same slot.
 */
export async function nextFreeSlot(tx: Tx, opts: SlotSearch): Promise<Date> {
  const channelIds = [...new Set(opts.channelIds)];
  const slots = await slotsOfChannels(tx, opts.accountId, channelIds, true);
  const found = await searchFreeSlot(tx, { ...opts, channelIds }, slots);
  if ('refused' in found) throw noSlot(found.refused);
  return found.at;
}

/**
 * `GET /api/content/channels/next-slot`: the slot `schedule: "next_slot"` would take now, or
 * why none would be, without taking it (a post scheduled meanwhile may take it first).
 * Another account's channel is 404, as its slots are. With `postId`, the channels of that
 * post's locked targets are left out, as `next_slot` leaves them out for it.
 */
export async function previewNextSlot(opts: {
  db: Db;
  principal: Principal;
  query: NextSlotQuery;
}): Promise<NextSlot> {
  const { db, principal, query } = opts;
  const { accountId } = principal;
  const existing = query.postId
    ? await db
        .select({ channelId: postTargets.channelId, status: postTargets.status })
        .from(postTargets)
        .where(and(eq(postTargets.postId, query.postId), eq(postTargets.accountId, accountId)))
    : [];
  const asked = [...new Set(query.channelIds)];
  const channelIds = channelsToSend(asked, existing);
  const slots = await slotsOfChannels(db, accountId, channelIds, false);
  if (slots.length !== channelIds.length) throw notFound('Channel');
  const sentAlready = channelIds.length === 0;
  const search = { ...query, accountId, channelIds, sentAlready, now: new Date() };
  const found = await searchFreeSlot(db, search, slots);
  return 'refused' in found
    ? { at: null, timeZone: found.timeZone, reason: found.refused }
    : { at: found.at.toISOString(), timeZone: found.timeZone, reason: null };
}
