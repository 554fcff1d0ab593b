import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { accountZone } from '~/server/account-zone';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { mayCall } from '~/server/may-call';
import { postAccess } from '~/server/post-access';
import { accountChannels } from '../channels';
import { editorMedia } from '../editor-media';
import { PostForm } from '../post-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New post' };

const PATH = '/dashboard/posts/new';

export default async function NewPostPage() {
  const me = await requirePrincipal(PATH);
  // Writing is for whoever may create posts (the procedure refuses anyone else).
  if (!mayCall(me, 'posts.create')) redirect('/dashboard/posts');
  const caller = await dashboardCaller(PATH);
  // Four reads of their own: at once, not one after another.
  const [{ media, more }, channels, { submits }, zone] = await Promise.all([
    editorMedia(caller),
    accountChannels(caller),
    postAccess(caller, me),
    accountZone(caller),
  ]);
  return (
    <>
      <p className="small">
        <Link href="/dashboard/posts">← Posts</Link>
      </p>
      <h1>New post</h1>
      <p className="lead">
        Write it once, tailor it per channel, and{' '}
        {submits ? 'submit it for approval' : 'schedule it'}; or save a draft to finish later.
      </p>
      <section className="panel">
        <PostForm
          media={media}
          moreMedia={more}
          channels={channels}
          submits={submits}
          zone={zone}
        />
      </section>
    </>
  );
}
