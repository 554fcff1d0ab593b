import type { Post } from '@chorus/validators';
import { ZoneTime } from '~/components/zone-time';

/** The moment that matters for the post's status, in the account's time zone (`zone`). */
export function PostWhen({ post, zone }: { post: Post; zone: string }) {
  if (post.status === 'scheduled' && post.scheduledAt) {
    return (
      <>
        Goes out <ZoneTime iso={post.scheduledAt} zone={zone} />
      </>
    );
  }
  if (post.status === 'published' && post.publishedAt) {
    return (
      <>
        Published <ZoneTime iso={post.publishedAt} zone={zone} />
      </>
    );
  }
  return (
    <>
      Edited <ZoneTime iso={post.updatedAt} zone={zone} />
    </>
  );
}

/** A post the scheduler publishes within two minutes: its page refreshes to show it go out. */
export const dueSoon = (post: Post) =>
  post.status === 'scheduled' &&
  post.scheduledAt !== null &&
  Date.parse(post.scheduledAt) < Date.now() + 120_000;
