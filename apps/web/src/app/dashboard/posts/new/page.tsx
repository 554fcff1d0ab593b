import Link from 'next/link';
import { redirect } from 'next/navigation';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { mayCall } from '~/server/may-call';
import { editorMedia } from '../editor-media';
import { PostForm } from '../post-form';

export const dynamic = 'force-dynamic';

const PATH = '/dashboard/posts/new';

export default async function NewPostPage() {
  const me = await requirePrincipal(PATH);
  // Writing is for whoever may create posts (the procedure refuses anyone else).
  if (!mayCall(me, 'posts.create')) redirect('/dashboard/posts');
  const caller = await dashboardCaller(PATH);
  const { media, more } = await editorMedia(caller);
  return (
    <>
      <p className="small">
        <Link href="/dashboard/posts">← Posts</Link>
      </p>
      <h1>New post</h1>
      <p className="lead">Saved as a draft: schedule or publish it from its page.</p>
      <section className="panel">
        <PostForm media={media} moreMedia={more} />
      </section>
    </>
  );
}
