import type { Post } from '@chorus/validators';

/** What a toast says of an approved post: scheduled at its time, or out now. */
export const approvedIn = (post: Pick<Post, 'title' | 'status'>) =>
  `Approved “${post.title}”: ${post.status === 'scheduled' ? 'scheduled' : 'publishing now'}.`;
