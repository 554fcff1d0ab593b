'use server';

import { z } from 'zod';
import { act } from '~/server/action';
import { refusal } from '~/server/form-errors';
import { calendarPosts, type CalendarPosts } from './calendar-posts';

// The shape only: the procedure judges the instants (a zone, a start not after the end).
const ZRange = z.object({
  from: z.string().max(64),
  to: z.string().max(64),
  channelId: z.string().min(1).max(64).optional(),
});

/**
 * The posts of the range the calendar shows (the instants the account's days begin and end).
 * The browser asks, so that after a move it reads the shown days again without a new page.
 */
export async function loadCalendarPosts(
  range: unknown,
): Promise<CalendarPosts | { error: string }> {
  const input = ZRange.safeParse(range);
  if (!input.success) return { error: 'The calendar asked for a range it does not show.' };
  // A read: nothing to render again.
  return act<CalendarPosts | { error: string }>(
    { path: '/dashboard/posts/calendar', shows: false, refused: refusal },
    (caller) => calendarPosts(caller, input.data),
  );
}
