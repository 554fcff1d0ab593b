import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { todayIn } from '~/components/zone-dates';
import { accountZone } from '~/server/account-zone';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { postAccess } from '~/server/post-access';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { ChannelFilter } from '../channel-filter';
import { accountChannels } from '../channels';
import { Calendar } from './calendar';
import { isDay, type CalendarView } from './calendar-grid';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Calendar' };

const PATH = '/dashboard/posts/calendar';
const SEARCH = {
  view: z.enum(['month', 'week'] satisfies CalendarView[]).default('month'),
  date: z.string().refine(isDay).nullable().default(null),
  channelId: searchField.text(),
};

/** The grid's days are the account's (its time zone read here); the browser asks for its posts. */
export default async function CalendarPage(props: { searchParams: Promise<SearchParams> }) {
  const search = parseSearch(await props.searchParams, SEARCH);
  const { view, date: anchor } = search;
  const me = await requirePrincipal(PATH);
  const caller = await dashboardCaller(PATH);
  const [channels, zone, may] = await Promise.all([
    accountChannels(caller),
    accountZone(caller),
    postAccess(caller, me),
  ]);
  // Only a channel of the account is a filter; anything else is left out, not refused.
  const channelId = channels.some((c) => c.id === search.channelId) ? search.channelId : undefined;
  return (
    <>
      <p className="small">
        <Link href="/dashboard/posts">← Posts</Link>
      </p>
      <h1>Calendar</h1>
      <p className="lead">Scheduled and published posts, by the day they go out.</p>
      {channels.length > 0 && (
        <form className="filters" action={PATH} aria-label="Filter the calendar">
          <input type="hidden" name="view" value={view} />
          {anchor && <input type="hidden" name="date" value={anchor} />}
          <ChannelFilter id="calendar-channel" channels={channels} selected={channelId} />
          <button type="submit">Filter</button>
        </form>
      )}
      <Calendar
        view={view}
        anchor={anchor}
        canMove={may.publish}
        channels={channels}
        channelId={channelId}
        zone={zone}
        today={todayIn(zone)}
      />
    </>
  );
}
