import { ZPostStatus, type PostStatus } from '@chorus/validators';
import Link from 'next/link';
import { AutoRefresh } from '~/components/auto-refresh';
import { EmptyState } from '~/components/empty-state';
import { TimeZoneNote } from '~/components/local-time';
import { Pagination } from '~/components/pagination';
import { TableScroll } from '~/components/table-scroll';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { formError } from '~/server/form-errors';
import { mayCall } from '~/server/may-call';
import { ChannelFilter } from './channel-filter';
import { accountChannels } from './channels';
import { PostChannels } from './post-channels';
import { PostStatusBadge } from './post-status';
import { ImportDialog } from './import-dialog';
import { StatusTabs } from './status-tabs';
import { dueSoon, PostWhen } from './when';

export const dynamic = 'force-dynamic';

const PATH = '/dashboard/posts';
const PER_PAGE = 20;
type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

export default async function PostsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const me = await requirePrincipal(PATH);
  const caller = await dashboardCaller(PATH);
  const status = ZPostStatus.safeParse(one(params.status)).data;
  const q = one(params.q).trim().slice(0, 200);
  const tag = one(params.tag).trim();
  const channels = await accountChannels(caller);
  const channelById = new Map(channels.map((c) => [c.id, c]));
  // Only a channel of the account is a filter; anything else is left out, not refused.
  const channelId = channelById.has(one(params.channelId)) ? one(params.channelId) : '';
  const page = Math.max(1, Number.parseInt(one(params.page), 10) || 1);
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
  const answer = await caller.posts
    .list({
      page,
      limit: PER_PAGE,
      status,
      q: q || undefined,
      tag: tag || undefined,
      channelId: channelId || undefined,
    })
    .then(
      (list) => ({ list, error: undefined }),
      (error: unknown) => ({ list: undefined, error: formError(error) }),
    );
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
        {posts.length === 0 ? (
          <EmptyState title={filtered ? 'No post matches' : 'No posts yet'}>
            {filtered
              ? 'Try another status, search, tag or channel.'
              : canWrite
                ? 'Write the first one with New post.'
                : 'Posts written in this account show here.'}
          </EmptyState>
        ) : (
          <TableScroll label="Posts">
            <table>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Status</th>
                  <th scope="col">Channels</th>
                  <th scope="col">Tags</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                {posts.map((post) => (
                  <tr key={post.id}>
                    <td>
                      <Link href={`${PATH}/${post.id}`}>{post.title}</Link>
                    </td>
                    <td>
                      <PostStatusBadge status={post.status} />
                    </td>
                    <td>
                      <PostChannels post={post} channels={channelById} />
                    </td>
                    <td>{post.tags.join(', ') || <span className="muted">—</span>}</td>
                    <td className="small">
                      <PostWhen post={post} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {answer.list && (
          <Pagination
            page={answer.list.meta.pagination.currentPage}
            pages={answer.list.meta.pagination.totalPages}
            total={answer.list.meta.pagination.total}
            href={(p) => href({ status, page: p })}
          />
        )}
        <p className="muted small">
          <TimeZoneNote />
        </p>
      </section>
      {posts.some(dueSoon) && <AutoRefresh seconds={5} />}
    </>
  );
}
