import Link from 'next/link';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { mayCall } from '~/server/may-call';
import { ChannelFilter } from '../channel-filter';
import { accountChannels } from '../channels';
import { Calendar } from './calendar';
import { isDay, type CalendarView } from './calendar-grid';

export const dynamic = 'force-dynamic';

const PATH = '/dashboard/posts/calendar';
type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/** The grid is drawn in the browser, which knows the reader's zone and asks for its posts. */
export default async function CalendarPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const me = await requirePrincipal(PATH);
  const view: CalendarView = one(params.view) === 'week' ? 'week' : 'month';
  const anchor = isDay(one(params.date)) ? one(params.date) : null;
  const channels = await accountChannels(await dashboardCaller(PATH));
  // Only a channel of the account is a filter; anything else is left out, not refused.
  const channelId = channels.some((c) => c.id === one(params.channelId))
    ? one(params.channelId)
    : undefined;
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
        canMove={mayCall(me, 'posts.update')}
        channels={channels}
        channelId={channelId}
      />
    </>
  );
}
