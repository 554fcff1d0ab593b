'use client';

import type { Channel } from '@chorus/validators';
import Link from 'next/link';
import {
  useEffect,
  useMemo,
  useOptimistic,
  useRef,
  useState,
  useTransition,
  type DragEvent,
} from 'react';
import { dayIn, onDayIn, timeIn } from '~/components/zone-dates';
import { ZoneNote } from '~/components/zone-time';
import { useToast } from '~/components/toast';
import type { ActionResult } from '~/server/action-result';
import { movePost } from '../actions';
import { PostChannels } from '../post-channels';
import { STATUS_LABELS } from '../post-status';
import { loadCalendarPosts } from './actions';
import {
  dateOf,
  dayName,
  daysOf,
  rangeOf,
  stepFrom,
  titleOf,
  WEEKDAY_NAMES,
  weekdayShort,
  type CalendarView,
} from './calendar-grid';
import type {
  CalendarOccurrence,
  CalendarPost,
  CalendarPosts,
  CalendarRange,
  CalendarSlot,
} from './calendar-posts';
import { OccurrenceItem, SlotItem } from './day-extras';
import { MoveDialog } from './move-dialog';

type CalendarProps = {
  view: CalendarView;
  /** The account's channels, for each post's marks; `channelId` the one filtered by, if any. */
  channels: Channel[];
  channelId?: string;
  /** The day whose month or week to show; today when null. */
  anchor: string | null;
  /** Whether this member may reschedule posts (not while approval holds their publishing). */
  canMove: boolean;
  /** The account's time zone, whose calendar the days are, and today on it (the server's). */
  zone: string;
  today: string;
};

type Answer = CalendarPosts | { error: string };
/** The answer for the range `key` (`from/to`): a newer range's answer replaces an older one. */
type Loaded = { key: string; answer: Answer };
const NO_POSTS: CalendarPost[] = [];
const NONE = { occurrences: [] as CalendarOccurrence[], openSlots: [] as CalendarSlot[] };
const UNREACHED: Answer = { error: 'The posts could not be loaded: reload the page to try again.' };
const keyOf = (range: CalendarRange) => `${range.from}/${range.to}/${range.channelId ?? ''}`;
const load = (range: CalendarRange) => loadCalendarPosts(range).catch((): Answer => UNREACHED);
const count = new Intl.NumberFormat('en-GB');

/** Says how many posts of the shown days the calendar left out (it reads at most 1,000 a status). */
function missingNote({ scheduled, published }: CalendarPosts['missing']) {
  const parts = [
    scheduled > 0 && `${count.format(scheduled)} scheduled`,
    published > 0 && `${count.format(published)} published`,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return `These days hold more posts than the calendar shows: ${parts.join(' and ')} ${
    scheduled + published === 1 ? 'post is' : 'posts are'
  } not shown.`;
}

// A drag that carries this type is one of our posts (not a link or text from elsewhere).
const DRAG_TYPE = 'application/x-chorus-post';
const whenOf = (post: CalendarPost) => post.scheduledAt ?? post.publishedAt ?? '';
const hrefWith = (channelId?: string) => (view: CalendarView, date: string) =>
  `/dashboard/posts/calendar?${new URLSearchParams({ view, date, ...(channelId && { channelId }) })}`;

/**
 * Scheduled and published posts on the account's calendar: days exist only in a time zone, and
 * the account's is the one its slots and series keep, so every reader sees a post on one day.
 */
export function Calendar(props: CalendarProps) {
  const { view, anchor: given, canMove, channels, channelId, zone, today } = props;
  const href = hrefWith(channelId);
  const channelById = useMemo(() => new Map(channels.map((c) => [c.id, c])), [channels]);
  const anchor = given ?? today;
  const days = daysOf(view, anchor);
  const month = anchor.slice(0, 7);
  // Exactly the shown days, from when the first begins to when the last ends in the zone.
  const range = { ...rangeOf(view, anchor, zone), channelId };
  const key = keyOf(range);
  const [loaded, setLoaded] = useState<Loaded>();
  useEffect(() => {
    let current = true;
    const shown = { from: range.from, to: range.to, channelId: range.channelId };
    void load(shown).then((answer) => {
      if (current) setLoaded({ key: keyOf(shown), answer });
    });
    return () => {
      current = false;
    };
  }, [range.from, range.to, range.channelId]);
  const answer = loaded?.key === key ? loaded.answer : undefined;
  const posts = answer && 'posts' in answer ? answer.posts : NO_POSTS;
  const { occurrences, openSlots } = answer && 'posts' in answer ? answer : NONE;
  const show = useToast();
  const [, startTransition] = useTransition();
  const [shown, moveLocally] = useOptimistic(
    posts,
    (current, moved: { id: string; scheduledAt: string }) =>
      current.map((post) => (post.id === moved.id ? { ...post, ...moved } : post)),
  );
  const dragged = useRef<string | null>(null);
  const [over, setOver] = useState<string | null>(null);

  /**
   * Moves `post` to `day`, at `scheduledAt` (its time of day there), then reads the shown days
   * again; answers as a form shows it. A dropped post stays where it was dropped meanwhile.
   */
  const moveTo = async (
    post: CalendarPost,
    day: string,
    scheduledAt: string,
  ): Promise<ActionResult> => {
    const moved = await movePost({ id: post.id, scheduledAt });
    if (!moved.ok) return moved;
    const fresh = await load(range);
    startTransition(() =>
      setLoaded((current) => (current?.key === key ? { key, answer: fresh } : current)),
    );
    return { ...moved, ok: `Moved “${post.title}” to ${dayName(day)}.` };
  };
  /** A drop moves the post at once, and back if the move is refused; a toast says which. */
  const drop = (post: CalendarPost, day: string) => {
    const scheduledAt = post.scheduledAt && onDayIn(post.scheduledAt, day, zone);
    if (!scheduledAt || day === dayIn(whenOf(post), zone)) return;
    startTransition(async () => {
      moveLocally({ id: post.id, scheduledAt });
      const answer = await moveTo(post, day, scheduledAt);
      if (answer.ok) show(answer.ok);
      else show(answer.error ?? 'The post was not moved.', 'error');
    });
  };
  // Only a future day can take a scheduled post; elsewhere the drop is refused at once.
  const dropProps = (day: string) =>
    canMove && day >= today
      ? {
          onDragOver: (event: DragEvent) => {
            if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
            setOver(day);
          },
          onDragLeave: () => setOver((current) => (current === day ? null : current)),
          onDrop: (event: DragEvent) => {
            event.preventDefault();
            setOver(null);
            const post = shown.find((p) => p.id === dragged.current);
            if (post) drop(post, day);
          },
        }
      : {};

  const byDay = new Map<string, CalendarPost[]>();
  for (const post of [...shown].sort((a, b) => whenOf(a).localeCompare(whenOf(b)))) {
    const day = dayIn(whenOf(post), zone);
    byDay.set(day, [...(byDay.get(day) ?? []), post]);
  }
  const byDayOf = <T extends { at: string }>(items: T[]) => {
    const map = new Map<string, T[]>();
    for (const item of [...items].sort((a, b) => a.at.localeCompare(b.at))) {
      const day = dayIn(item.at, zone);
      map.set(day, [...(map.get(day) ?? []), item]);
    }
    return map;
  };
  const occurrencesByDay = byDayOf(occurrences);
  const slotsByDay = byDayOf(openSlots);
  const title = titleOf(view, anchor);
  const note = answer && 'missing' in answer ? missingNote(answer.missing) : null;
  return (
    <section className="panel calendar" aria-labelledby="calendar-title" aria-busy={!answer}>
      <div className="calendar-head">
        <h2 id="calendar-title">{title}</h2>
        <nav aria-label="Calendar" className="calendar-nav">
          <Link href={href(view, stepFrom(view, anchor, -1))}>← Previous {view}</Link>
          <Link href={href(view, today)}>Today</Link>
          <Link href={href(view, stepFrom(view, anchor, 1))}>Next {view} →</Link>
          <span className="view-switch">
            {(['month', 'week'] as const).map((v) => (
              <Link key={v} href={href(v, anchor)} aria-current={v === view ? 'page' : undefined}>
                {v === 'month' ? 'Month' : 'Week'}
              </Link>
            ))}
          </span>
        </nav>
      </div>
      <p className="muted small">
        <ZoneNote zone={zone} /> Scheduled posts have a dashed outline, published ones are filled;
        “↻ Repeats” marks the coming occurrences of a recurring post, and “Open slot” a channel’s
        posting time that no post holds yet.
        {canMove &&
          ' Drag a scheduled post to another day to move it (it keeps its time), or use its Move button.'}
      </p>
      {!answer && (
        <p className="muted small" role="status">
          Loading the posts of these days…
        </p>
      )}
      {answer && 'error' in answer && (
        <p className="notice error" role="alert">
          {answer.error}
        </p>
      )}
      {note && (
        <p className="notice" role="note">
          {note}
        </p>
      )}
      <div className="weekdays" aria-hidden="true">
        {WEEKDAY_NAMES.map((name) => (
          <span key={name}>{name.slice(0, 3)}</span>
        ))}
      </div>
      <ol className={`calendar-days ${view}`} aria-label={title}>
        {days.map((day) => {
          const items = byDay.get(day) ?? [];
          const repeats = occurrencesByDay.get(day) ?? [];
          const slots = slotsByDay.get(day) ?? [];
          const classes = [
            'calendar-day',
            view === 'month' && !day.startsWith(month) && 'outside',
            // Not `empty`: that is the empty state's class, whose box it would take.
            items.length + repeats.length + slots.length === 0 && 'no-posts',
            over === day && 'drop-target',
          ];
          return (
            <li
              key={day}
              aria-labelledby={`day-${day}`}
              aria-current={day === today ? 'date' : undefined}
              className={classes.filter(Boolean).join(' ')}
              {...dropProps(day)}
            >
              <span id={`day-${day}`} className="sr-only">
                {dayName(day)}
                {day === today && ', today'}
              </span>
              <span className="day-number" aria-hidden="true">
                <span className="weekday">{weekdayShort(day)} </span>
                {dateOf(day)}
              </span>
              {items.length > 0 && (
                <ul className="day-posts">
                  {items.map((post) => {
                    const movable = canMove && post.status === 'scheduled' && !!post.scheduledAt;
                    const time = timeIn(whenOf(post), zone);
                    return (
                      <li
                        key={post.id}
                        className={`calendar-post ${post.status}`}
                        draggable={movable}
                        onDragStart={(event) => {
                          event.dataTransfer.setData(DRAG_TYPE, post.id);
                          event.dataTransfer.setData('text/plain', post.title);
                          event.dataTransfer.effectAllowed = 'move';
                          dragged.current = post.id;
                        }}
                        onDragEnd={() => {
                          dragged.current = null;
                          setOver(null);
                        }}
                      >
                        <span className="time">{time}</span>{' '}
                        <Link href={`/dashboard/posts/${post.id}`} draggable={false}>
                          {post.title}
                        </Link>
                        <span className="sr-only">, {STATUS_LABELS[post.status]}</span>
                        <PostChannels post={post} channels={channelById} none={null} />
                        {movable && post.scheduledAt && (
                          <MoveDialog
                            title={post.title}
                            scheduledAt={post.scheduledAt}
                            time={time}
                            zone={zone}
                            today={today}
                            onMove={(day, scheduledAt) => moveTo(post, day, scheduledAt)}
                          />
                        )}
                      </li>
                    );
                  })}
                </ul>
              )}
              {repeats.length + slots.length > 0 && (
                <ul className="day-posts">
                  {repeats.map((occurrence) => (
                    <OccurrenceItem
                      key={`${occurrence.seriesId} ${occurrence.at}`}
                      occurrence={occurrence}
                      channels={channelById}
                      zone={zone}
                    />
                  ))}
                  {slots.map((slot) => (
                    <SlotItem
                      key={`${slot.channelId} ${slot.at}`}
                      slot={slot}
                      channels={channelById}
                      zone={zone}
                    />
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
