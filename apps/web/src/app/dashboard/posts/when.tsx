import type { Post } from '@chorus/validators';
import { LocalTime } from '~/components/local-time';

/** The moment that matters for the post's status, in the reader's time zone. */
export function PostWhen({ post }: { post: Post }) {
  if (post.status === 'scheduled' && post.scheduledAt) {
    return (
      <>
        Goes out <LocalTime iso={post.scheduledAt} />
      </>
    );
  }
  if (post.status === 'published' && post.publishedAt) {
    return (
      <>
        Published <LocalTime iso={post.publishedAt} />
      </>
    );
  }
  return (
    <>
      Edited <LocalTime iso={post.updatedAt} />
    </>
  );
}

/** A post the scheduler publishes within two minutes: its page refreshes to show it go out. */
export const dueSoon = (post: Post) =>
  post.status === 'scheduled' &&
  post.scheduledAt !== null &&
  Date.parse(post.scheduledAt) < Date.now() + 120_000;
