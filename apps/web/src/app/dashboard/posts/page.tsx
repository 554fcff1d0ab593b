import type { Metadata } from 'next';
import { ZPostStatus, type PostStatus } from '@chorus/validators';
import Link from 'next/link';
import { AutoRefresh } from '~/components/auto-refresh';
import { DataTable } from '~/components/data-table';
import { EmptyState } from '~/components/empty-state';
import { envelopePage } from '~/components/pagination';
import { ZoneNote } from '~/components/zone-time';
import { accountZone } from '~/server/account-zone';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { formError } from '~/server/form-errors';
import { mayCall } from '~/server/may-call';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { ChannelFilter } from './channel-filter';
import { accountChannels } from './channels';
import { PostChannels } from './post-channels';
import { PostStatusBadge } from './post-status';
import { ImportDialog } from './import-dialog';
import { StatusTabs } from './status-tabs';
import { dueSoon, PostWhen } from './when';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Posts' };

const PATH = '/dashboard/posts';
const PER_PAGE = 20;
const SEARCH = {
  status: searchField.oneOf(ZPostStatus),
  q: searchField.text(200),
  // A tag over 50 characters is the procedure's to refuse, with its message.
  tag: searchField.text(),
  channelId: searchField.text(),
  page: searchField.page,
};

export default async function PostsPage(props: { searchParams: Promise<SearchParams> }) {
  const search = parseSearch(await props.searchParams, SEARCH);
  const { status, q, tag, page } = search;
  const me = await requirePrincipal(PATH);
  const caller = await dashboardCaller(PATH);
  const channels = await accountChannels(caller);
  const channelById = new Map(channels.map((c) => [c.id, c]));
  // Only a channel of the account is a filter; anything else is left out, not refused.
  const channelId = channelById.has(search.channelId) ? search.channelId : '';
  const href = (p: { status?: PostStatus; page?: number }) => {
    const query = new URLSearchParams({
      ...(p.status && { status: p.status }),
      ...(q && { q }),
      ...(tag && { tag }),
      ...(channelId && { channelId }),
      ...(p.page && p.page > 1 && { page: String(p.page) }),
    }).toString();
    return query ? `${PATH}?${query}` : PATH;
  };
  // A filter the procedure refuses (a tag over 50 characters) is said beside the filters.
  const listed = caller.posts
    .list({
      page,
      limit: PER_PAGE,
      status,
      q: q || undefined,
      tag: tag || undefined,
      channelId: channelId || undefined,
      // The scheduled tab reads as a queue: what goes out next first.
      ...(status === 'scheduled' && { sort: 'scheduledAt' as const }),
    })
    .then(
      (list) => ({ list, error: undefined }),
      (error: unknown) => ({ list: undefined, error: formError(error) }),
    );
  const [answer, zone] = await Promise.all([listed, accountZone(caller)]);
  const posts = answer.list?.data ?? [];
  const filtered = Boolean(status || q || tag || channelId);
  const canWrite = mayCall(me, 'posts.create');
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Posts</h1>
          <p className="lead">What this account publishes: drafts, scheduled posts and more.</p>
        </div>
        <div className="actions">
          <Link href={`${PATH}/calendar`} className="button">
            Calendar
          </Link>
          <Link href={`${PATH}/approvals`} className="button">
            Awaiting approval
          </Link>
          <a
            href={`/api/content/posts/export?${new URLSearchParams({
              format: 'csv',
              ...(status && { status }),
              ...(q && { q }),
              ...(tag && { tag }),
              ...(channelId && { channelId }),
            }).toString()}`}
            className="button"
            download
          >
            Export CSV
          </a>
          {canWrite && <ImportDialog />}
          {canWrite && (
            <Link href={`${PATH}/new`} className="button primary">
              New post
            </Link>
          )}
        </div>
      </div>
      <section className="panel">
        <StatusTabs current={status} href={(s) => href({ status: s })} />
        <form className="filters" role="search" action={PATH}>
          {status && <input type="hidden" name="status" value={status} />}
          <div className="field grow">
            <label htmlFor="post-search">Search</label>
            <input
              id="post-search"
              name="q"
              type="search"
              maxLength={200}
              defaultValue={q}
              placeholder="Words in the title or content"
            />
          </div>
          <div className="field">
            <label htmlFor="post-tag">Tag</label>
            <input id="post-tag" name="tag" defaultValue={tag} placeholder="e.g. launch" />
          </div>
          {channels.length > 0 && (
            <ChannelFilter id="post-channel" channels={channels} selected={channelId} />
          )}
          <button type="submit">Filter</button>
        </form>
        {answer.error && (
          <p className="error" role="alert">
            {answer.error}
          </p>
        )}
        <DataTable
          label="Posts"
          rows={posts}
          rowKey={(post) => post.id}
          empty={
            <EmptyState title={filtered ? 'No post matches' : 'No posts yet'}>
              {filtered
                ? 'Try another status, search, tag or channel.'
                : canWrite
                  ? 'Write the first one with New post.'
                  : 'Posts written in this account show here.'}
            </EmptyState>
          }
          columns={[
            {
              header: 'Title',
              className: 'title',
              cell: (post) => <Link href={`${PATH}/${post.id}`}>{post.title}</Link>,
            },
            { header: 'Status', cell: (post) => <PostStatusBadge status={post.status} /> },
            {
              header: 'Channels',
              cell: (post) => <PostChannels post={post} channels={channelById} />,
            },
            {
              header: 'Tags',
              cell: (post) => post.tags.join(', ') || <span className="muted">—</span>,
            },
            {
              header: 'When',
              className: 'small',
              cell: (post) => <PostWhen post={post} zone={zone} />,
            },
          ]}
          pagination={
            answer.list && {
              at: envelopePage(answer.list.meta.pagination),
              href: (p) => href({ status, page: p }),
            }
          }
        />
        <p className="muted small">
          <ZoneNote zone={zone} />
        </p>
      </section>
      {posts.some(dueSoon) && <AutoRefresh seconds={5} />}
    </>
  );
}
