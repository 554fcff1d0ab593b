import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AutoRefresh } from '~/components/auto-refresh';
import { ConfirmAction } from '~/components/confirm-action';
import { ZoneNote } from '~/components/zone-time';
import { accountZone } from '~/server/account-zone';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { postAccess, statusChangesFor } from '~/server/post-access';
import { deletePost } from '../actions';
import { ActivityList } from '../approval/activity-list';
import { ApprovalControls } from '../approval/approval-controls';
import { RejectionNotice } from '../approval/rejection-notice';
import { accountChannels } from '../channels';
import { ComposerStateProvider } from '../composer/composer-state';
import { readOnlyBecause } from '../composer/step';
import { editorMedia } from '../editor-media';
import { PostForm } from '../post-form';
import { PostStatusBadge } from '../post-status';
import { PostView } from '../post-view';
import { StatusActions } from '../status-actions';
import { dueSoon, PostWhen } from '../when';
import { PostTargets } from './post-targets';
import { SeriesDates, SeriesOrigin } from './series-dates';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Post' };

type Params = Promise<{ id: string }>;

/** The composer form's id: the Status panel's buttons submit it. */
const COMPOSER = 'composer';

export default async function PostPage(props: { params: Params }) {
  const { id } = await props.params;
  const path = `/dashboard/posts/${id}`;
  const me = await requirePrincipal(path);
  const caller = await dashboardCaller(path);
  // One query after another: the embedded database's socket refuses pipelined statements.
  const found = await caller.posts.get({ id }).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'NOT_FOUND') notFound();
    throw error;
  });
  const post = found.data;
  // Every time on the page is on the account's clock, as the calendar and the composer's.
  const [{ media, more, missing }, channelList, zone, may] = await Promise.all([
    editorMedia(caller, post.mediaIds),
    accountChannels(caller),
    accountZone(caller),
    // Controls only for what this user may do: the procedures' rules and the account's approval.
    postAccess(caller, me),
  ]);
  const channels = new Map(channelList.map((c) => [c.id, c]));
  const readOnly = readOnlyBecause(post, may.submits, me.role === 'admin');
  // The composer is shown: the post can be changed here, and by this user. The Status panel's
  // buttons then submit its form, so that what is typed there goes with them.
  const editable = may.edit && !readOnly;
  const composer = editable ? COMPOSER : undefined;
  return (
    <>
      <p className="small">
        <Link href="/dashboard/posts">← Posts</Link>
        {' · '}
        <Link href="/dashboard/posts/calendar">Calendar</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>Post</h1>
          <p className="lead">{post.title}</p>
        </div>
        {may.delete && (
          <ConfirmAction
            button="Delete"
            label={`Delete the post “${post.title}”`}
            title="Delete this post?"
            description={`“${post.title}” is deleted${post.status === 'scheduled' ? ' and never published' : ''}; its media stay in the library. This cannot be undone.`}
            confirm="Delete post"
            action={deletePost}
            values={{ id: post.id, title: post.title }}
            after="/dashboard/posts"
          />
        )}
      </div>
      <ComposerStateProvider>
        <section className="panel" aria-labelledby="post-status">
          <h2 id="post-status">Status</h2>
          <p>
            <PostStatusBadge status={post.status} />{' '}
            <span className="muted small">
              <PostWhen post={post} zone={zone} />
            </span>
          </p>
          <SeriesDates post={post} zone={zone} />
          <SeriesOrigin post={post} />
          <RejectionNotice rejection={post.rejection} zone={zone} />
          {may.edit && (
            <StatusActions post={post} next={statusChangesFor(post, may)} composer={composer} />
          )}
          <ApprovalControls post={post} canDecide={may.decide} composer={composer} />
          {may.edit && readOnly && <p className="small muted">{readOnly}</p>}
          <p className="small muted">
            <ZoneNote zone={zone} />
          </p>
        </section>
        {post.targets.length > 0 && (
          <PostTargets post={post} channels={channels} may={may} zone={zone} composer={composer} />
        )}
        <section className="panel" aria-labelledby="post-content">
          <h2 id="post-content">Content</h2>
          {missing.length > 0 && (
            <p className="error" role="alert">
              This post names {missing.length === 1 ? 'a medium' : 'media'} deleted from the library
              ({missing.join(', ')}): it is not sent until{' '}
              {missing.length === 1 ? 'it is' : 'they are'} taken out of it
              {editable ? ', which saving it here does' : ''}.
            </p>
          )}
          {editable ? (
            <PostForm
              id={COMPOSER}
              post={post}
              media={media}
              moreMedia={more}
              channels={channelList}
              submits={may.submits}
              zone={zone}
            />
          ) : (
            <PostView post={post} media={media} />
          )}
        </section>
      </ComposerStateProvider>
      <ActivityList caller={caller} id={post.id} channels={channels} zone={zone} />
      {(dueSoon(post) || post.status === 'publishing') && <AutoRefresh seconds={5} />}
    </>
  );
}
