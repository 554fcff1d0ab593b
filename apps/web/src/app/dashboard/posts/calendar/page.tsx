import Link from 'next/link';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { mayCall } from '~/server/may-call';
import { Calendar } from './calendar';
import { instantsOf, isDay, type CalendarView } from './calendar-grid';
import { calendarPosts } from './calendar-posts';

export const dynamic = 'force-dynamic';

const PATH = '/dashboard/posts/calendar';
type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

export default async function CalendarPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const me = await requirePrincipal(PATH);
  const caller = await dashboardCaller(PATH);
  const view: CalendarView = one(params.view) === 'week' ? 'week' : 'month';
  const anchor = isDay(one(params.date)) ? one(params.date) : null;
  const { posts, truncated } = await calendarPosts(caller, instantsOf(view, anchor));
  return (
    <>
      <p className="small">
        <Link href="/dashboard/posts">← Posts</Link>
      </p>
      <h1>Calendar</h1>
      <p className="lead">Scheduled and published posts, by the day they go out.</p>
      {truncated && (
        <p className="notice" role="note">
          This account has too many posts to show them all here: some may be missing.
        </p>
      )}
      <Calendar view={view} anchor={anchor} posts={posts} canMove={mayCall(me, 'posts.update')} />
    </>
  );
}
