import { field, posts, postTargets, type RowOf } from '@chorus/db';

/**
 * A post's columns as the row reader gives them (timestamps as ISO text): what `toPost` writes
 * a post from, read so by the list, and converted so from drizzle's rows elsewhere (`asRead`).
 */
export const postFields = {
  id: field.column(posts.id),
  accountId: field.column(posts.accountId),
  authorId: field.column(posts.authorId),
  title: field.column(posts.title),
  content: field.column(posts.content),
  status: field.column(posts.status),
  tags: field.column(posts.tags),
  scheduledAt: field.timestamp(posts.scheduledAt),
  publishedAt: field.timestamp(posts.publishedAt),
  rejectionComment: field.column(posts.rejectionComment),
  rejectedBy: field.column(posts.rejectedBy),
  rejectedAt: field.timestamp(posts.rejectedAt),
  recurrence: field.column(posts.recurrence),
  nextOccurrenceAt: field.timestamp(posts.nextOccurrenceAt),
  recurrenceOf: field.column(posts.recurrenceOf),
  createdAt: field.timestamp(posts.createdAt),
  updatedAt: field.timestamp(posts.updatedAt),
};
export type PostFields = RowOf<typeof postFields>;

/** A target's columns the API shows (`toTarget`); `progress` and the backoff stay inside. */
export const targetFields = {
  id: field.column(postTargets.id),
  postId: field.column(postTargets.postId),
  channelId: field.column(postTargets.channelId),
  content: field.column(postTargets.content),
  mediaIds: field.column(postTargets.mediaIds),
  firstComment: field.column(postTargets.firstComment),
  thread: field.column(postTargets.thread),
  status: field.column(postTargets.status),
  externalId: field.column(postTargets.externalId),
  url: field.column(postTargets.url),
  publishedAt: field.timestamp(postTargets.publishedAt),
  attempts: field.column(postTargets.attempts),
  error: field.column(postTargets.error),
};
export type TargetFields = RowOf<typeof targetFields>;
