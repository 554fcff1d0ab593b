import Link from 'next/link';
import { requirePrincipal } from '~/server/dashboard';
import { mayCall } from '~/server/may-call';
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
  return (
    <>
      <p className="small">
        <Link href="/dashboard/posts">← Posts</Link>
      </p>
      <h1>Calendar</h1>
      <p className="lead">Scheduled and published posts, by the day they go out.</p>
      <Calendar view={view} anchor={anchor} canMove={mayCall(me, 'posts.update')} />
    </>
  );
}
