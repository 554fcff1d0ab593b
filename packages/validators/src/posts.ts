import { z } from 'zod';
import { paginationQuery, ZTimestamp } from './common';
import { ZEnvelope, ZListEnvelope } from './envelope';

export const POST_STATUSES = ['draft', 'scheduled', 'published', 'archived'] as const;
export const ZPostStatus = z.enum(POST_STATUSES);
export type PostStatus = z.infer<typeof ZPostStatus>;

const ZTitle = z.string().trim().min(1).max(300);
const ZContent = z.string().max(50_000);
const ZTag = z.string().trim().min(1).max(50);

/** Up to 30 tags of 1–50 characters, trimmed, duplicates dropped (decisions §10). */
const ZTags = z
  .array(ZTag)
  .max(30)
  .transform((tags) => [...new Set(tags)]);

const ZMediaIds = z
  .array(z.string().min(1).max(64))
  .max(20)
  .refine((ids) => new Set(ids).size === ids.length, 'mediaIds must not repeat an id.')
  .meta({ description: 'Media of the same account, attached in this order.' });

/**
 * When to publish, with a time zone: `Z` or an offset such as `+02:00` (stored as UTC). A
 * time without a zone is refused rather than guessed.
 */
const ZScheduleTime = z.iso
  .datetime({ offset: true })
  .meta({ example: '2026-11-21T10:00:00.000Z' });

export const ZPost = z
  .object({
    id: z.string().meta({ example: 'post_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    title: z.string().meta({ example: 'Launch day' }),
    content: z.string(),
    status: ZPostStatus,
    tags: z.array(z.string()).meta({ example: ['launch', 'news'] }),
    mediaIds: z.array(z.string()),
    scheduledAt: ZTimestamp.nullable(),
    publishedAt: ZTimestamp.nullable(),
    authorId: z.string().nullable().meta({ description: 'null once the author is deleted.' }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Post' });

export const ZCreatePost = z.object({
  title: ZTitle,
  content: ZContent.default(''),
  status: ZPostStatus.default('draft').meta({
    description: 'draft (default), scheduled (needs a future scheduledAt) or published.',
  }),
  tags: ZTags.default([]),
  mediaIds: ZMediaIds.default([]),
  scheduledAt: ZScheduleTime.optional(),
});

export const ZUpdatePost = z.object({
  title: ZTitle.optional(),
  content: ZContent.optional(),
  status: ZPostStatus.optional().meta({ description: 'A change of status follows §10.' }),
  tags: ZTags.optional(),
  mediaIds: ZMediaIds.optional(),
  scheduledAt: ZScheduleTime.nullable().optional(),
});

export const ZPostIdParam = z.object({ id: z.string() });

/**
 * A bound on a publishing time in the list's query: the format of `from`/`to`, inclusive like
 * them. A post without that time has nothing to compare, so it never matches.
 */
const bound = (field: 'scheduledAt' | 'publishedAt', side: 'at or after' | 'at or before') =>
  ZScheduleTime.meta({
    description: `Only posts whose \`${field}\` is ${side} this time (inclusive); posts without a \`${field}\` never match.`,
  }).optional();

export const ZListPostsQuery = paginationQuery(25).extend({
  status: ZPostStatus.meta({ description: 'Only posts in this status.' }).optional(),
  tag: ZTag.meta({ description: 'Only posts carrying this tag (exact match).' }).optional(),
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .meta({ description: 'Plain text searched in title and content, case-insensitively.' })
    .optional(),
  from: ZScheduleTime.meta({ description: 'Created at or after this time.' }).optional(),
  to: ZScheduleTime.meta({ description: 'Created at or before this time.' }).optional(),
  scheduledFrom: bound('scheduledAt', 'at or after'),
  scheduledTo: bound('scheduledAt', 'at or before'),
  publishedFrom: bound('publishedAt', 'at or after'),
  publishedTo: bound('publishedAt', 'at or before'),
  sort: z.enum(['-createdAt', 'scheduledAt']).default('-createdAt').meta({
    description:
      '`-createdAt`: newest first (the default). `scheduledAt`: soonest `scheduledAt` first, posts without one last; with `status=scheduled`, what goes out next.',
  }),
});

export const ZPostResponse = ZEnvelope(ZPost, 'PostResponse');
export const ZPostList = ZListEnvelope(ZPost, 'PostList');

export type Post = z.infer<typeof ZPost>;
export type CreatePostInput = z.infer<typeof ZCreatePost>;
export type UpdatePostInput = z.infer<typeof ZUpdatePost>;
export type ListPostsQuery = z.infer<typeof ZListPostsQuery>;
