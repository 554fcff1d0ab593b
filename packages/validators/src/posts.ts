import { z } from 'zod';
import { SINGLE_LINE_MESSAGE, singleLine } from './text';
import { isWebUrl, paginationQuery, rangeBound, ZTimestamp, ZZonedTime } from './common';
import { ZEnvelope, ZListEnvelope } from './envelope';
import type { Issue } from './publishing/check';
import { ZRecurrence } from './recurrence';

export const POST_STATUSES = [
  'draft',
  'pending_approval',
  'scheduled',
  'publishing',
  'published',
  'failed',
  'archived',
] as const;
export const ZPostStatus = z.enum(POST_STATUSES);
export type PostStatus = z.infer<typeof ZPostStatus>;

// The descriptions state every rule of the field, one line included: a title or tag with a tab
// or a line break is refused (`singleLine`), and a client learns that here, not by trying.
const ZTitle = singleLine(z.string().trim().min(1).max(300)).meta({
  description: `The post's title: 1–300 characters once trimmed, on one line (a tab or a line break is 400: "${SINGLE_LINE_MESSAGE}").`,
  example: 'Launch day',
});
const ZContent = z
  .string()
  .max(50_000)
  .meta({ example: 'We are live: https://example.com/launch' });
const ZTag = singleLine(z.string().trim().min(1).max(50)).meta({
  description: '1–50 characters once trimmed, on one line (no tab or line break).',
});

/** Up to 30 tags of 1–50 characters, trimmed, duplicates dropped (docs/posts-and-scheduler.md). */
const ZTags = z
  .array(ZTag)
  .max(30)
  .transform((tags) => [...new Set(tags)]);

const ZMediaIds = z
  .array(z.string().min(1).max(64))
  .max(20)
  .meta({ description: 'Media of the same account, attached in this order; no id twice.' });

/**
 * When to publish, with a time zone: `Z` or an offset such as `+02:00` (stored as UTC). A
 * time without a zone is refused rather than guessed.
 */
const ZScheduleTime = ZZonedTime;

/**
 * `scheduledAt` in a create or update body. `null` is the same as leaving it out: a client
 * that sends a post back as the API showed it (a draft's `scheduledAt` is null) changes
 * nothing by it. Only scheduling sets the time, and only `status: "draft"` clears it
 * (docs/posts-and-scheduler.md), so null never stands for "unschedule".
 */
const ZScheduleField = ZScheduleTime.nullable()
  .transform((value) => value ?? undefined)
  .optional()
  .meta({
    description:
      'When to publish, with `status: "scheduled"` (in the future, with a zone). `null` is the same as leaving it out: it changes nothing (unscheduling is `status: "draft"`).',
  });

/** At most this many channels per post, and posts per thread (the longest networks allow). */
export const MAX_TARGETS = 50;
const MAX_THREAD_PARTS = 25;
/**
 * The most thread parts a body may hold: a bound on the request, as MAX_TARGETS is, well over
 * MAX_THREAD_PARTS, which is a rule on the post (postBodyIssues) that validate reports.
 */
const MAX_THREAD_IN_BODY = 100;

const ZThreadPart = z
  .object({
    content: ZContent,
    mediaIds: ZMediaIds.nullable()
      .optional()
      .meta({ description: 'Media of this part; none when left out or null.' }),
  })
  .meta({ id: 'ThreadPart' });

/**
 * What a client sends for one channel: fields left out fall back to the post's
 * (docs/publishing.md). null means the same as left out, as a target's answer shows it, so an
 * answer's targets can be sent back as they are.
 */
export const ZTargetInput = z
  .object({
    channelId: z.string().min(1).max(64).meta({
      description: 'A channel of the account (`GET /api/content/channels`).',
      example: 'chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0W',
    }),
    content: ZContent.nullable().optional().meta({
      description: "This channel's text; the post's `content` when left out or null.",
    }),
    mediaIds: ZMediaIds.nullable().optional().meta({
      description: "This channel's media; the post's `mediaIds` when left out or null.",
    }),
    firstComment: z.string().max(50_000).nullable().optional().meta({
      description:
        'Posted as the first comment (a reply on Bluesky, Mastodon, X and Threads) right after the post. None when left out or null (a post has no first comment of its own); a blank one (empty, or spaces only) is refused.',
    }),
    thread: z
      .array(ZThreadPart)
      .max(MAX_THREAD_IN_BODY)
      .nullable()
      .optional()
      .meta({
        description: `Posts that follow the first as a thread, in order (networks with threads; at most ${MAX_THREAD_PARTS - 1}). None when left out or null.`,
      }),
  })
  .meta({ id: 'TargetInput' });
export type TargetInput = z.infer<typeof ZTargetInput>;

const ZTargets = z.array(ZTargetInput).max(MAX_TARGETS);

/**
 * The rules a well-formed body's values must follow together, beyond each field's type and
 * bounds (docs/publishing.md, Validate): no medium twice in a list, each channel once among the
 * targets, a thread of at most MAX_THREAD_PARTS posts, no blank first comment (every network
 * refuses one or posts an empty reply, after the post itself is out, so it is refused before;
 * none is `null`). Issues, not a refusal of the body's shape:
 * `POST /api/content/posts/validate` lists them with the rest (200), creating and updating a
 * post refuse them (400), both from here.
 */
export function postBodyIssues(body: {
  mediaIds?: string[] | null;
  targets?: TargetInput[] | null;
}): Issue[] {
  const issues: Issue[] = [];
  const noRepeat = (ids: string[] | null | undefined, path: string) => {
    const seen = new Set<string>();
    (ids ?? []).forEach((id, i) => {
      if (seen.has(id)) {
        issues.push({ path: `${path}[${i}]`, message: `${id} is already in this list.` });
      }
      seen.add(id);
    });
  };
  noRepeat(body.mediaIds, 'mediaIds');
  const channels = new Set<string>();
  (body.targets ?? []).forEach((target, index) => {
    const at = `targets[${index}]`;
    if (channels.has(target.channelId)) {
      issues.push({
        path: `${at}.channelId`,
        message: 'A post goes to each channel once: this channel is already a target.',
      });
    }
    channels.add(target.channelId);
    noRepeat(target.mediaIds, `${at}.mediaIds`);
    const thread = target.thread ?? [];
    if (thread.length > MAX_THREAD_PARTS - 1) {
      issues.push({
        path: `${at}.thread`,
        message: `A thread has at most ${MAX_THREAD_PARTS} posts: the first and ${MAX_THREAD_PARTS - 1} more (${thread.length} more here).`,
      });
    }
    thread.forEach((part, i) => noRepeat(part.mediaIds, `${at}.thread[${i}].mediaIds`));
    if (typeof target.firstComment === 'string' && target.firstComment.trim() === '') {
      issues.push({
        path: `${at}.firstComment`,
        message: 'A first comment needs text: leave it out (or null) for none.',
      });
    }
  });
  return issues;
}

export const TARGET_STATUSES = [
  'pending',
  'publishing',
  'published',
  'failed',
  'unconfirmed',
] as const;

/**
 * A target that may be on its network is locked (docs/publishing.md, Targets): a `published`
 * one is never sent again, an `unconfirmed` one not until it is resolved. It stays among its
 * post's targets, sending what it sent: the API refuses a list that drops or changes it, the
 * composer does not offer to, and an edit of the post's own fields leaves it what it sent.
 */
export const LOCKED_TARGET_STATUSES = ['published', 'unconfirmed'] as const;

export const isLockedTarget = (target: { status: (typeof TARGET_STATUSES)[number] }) =>
  (LOCKED_TARGET_STATUSES as readonly string[]).includes(target.status);

export const ZTarget = z
  .object({
    id: z.string().meta({ example: 'tgt_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    channelId: z.string().meta({ example: 'chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    content: z.string().nullable().meta({ description: "null: the post's `content`." }),
    mediaIds: z.array(z.string()).nullable().meta({ description: "null: the post's `mediaIds`." }),
    firstComment: z.string().nullable(),
    thread: z
      .array(z.object({ content: z.string(), mediaIds: z.array(z.string()).optional() }))
      .nullable(),
    status: z.enum(TARGET_STATUSES).meta({
      description:
        '`pending` (waiting to be sent), `publishing` (being sent), `published`, `failed` (see `error`), `unconfirmed` (the outcome is unknown: check the network, then `resolve`).',
    }),
    externalId: z.string().nullable().meta({ description: "The post's id at the network." }),
    url: z.string().nullable().meta({
      description:
        'Where the post is seen on the network: an absolute http(s) URL, or null where the network gave none (a link of another kind is not kept).',
    }),
    publishedAt: ZTimestamp.nullable(),
    attempts: z.number().int(),
    error: z
      .object({
        code: z.string().meta({ example: 'rejected' }),
        message: z.string().meta({ example: 'Text character limit of 500 exceeded' }),
        retryable: z.boolean(),
      })
      .nullable(),
  })
  .meta({ id: 'Target' });
export type Target = z.infer<typeof ZTarget>;

export const ZRejection = z
  .object({
    comment: z.string().meta({ example: 'Please add the launch link.' }),
    rejectedBy: z.string().nullable().meta({ description: 'The admin; null once deleted.' }),
    rejectedAt: ZTimestamp,
  })
  .meta({ id: 'Rejection' });

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
    targets: z.array(ZTarget).meta({ description: 'The channels the post goes to, in order.' }),
    rejection: ZRejection.nullable().meta({
      description:
        'The last rejection of the post by an admin, for its author to read; null once it is submitted again, or if it never was rejected.',
    }),
    recurrence: z.string().nullable().meta({
      description:
        "The RRULE the post repeats by, in the account's time zone from `scheduledAt`; null: it does not repeat.",
      example: 'FREQ=WEEKLY;BYDAY=MO',
    }),
    recurrenceOf: z.string().nullable().meta({
      description: 'On a copy published by a series: the series (the original post).',
      example: null,
    }),
    nextOccurrences: z.array(ZTimestamp).meta({
      description:
        'A scheduled series: its next (up to 5) occurrences, each published as a copy. Empty for any other post.',
      example: ['2026-12-07T09:00:00.000Z', '2026-12-14T09:00:00.000Z'],
    }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Post' });

export const ZCreatePost = z.object({
  title: ZTitle,
  content: ZContent.default(''),
  // Left out rather than defaulted here: `schedule: "next_slot"` sets the status itself and
  // refuses any other asked for, `draft` included, so the service must see what was sent.
  status: ZPostStatus.optional().meta({
    description:
      'draft (the default), scheduled (needs a future scheduledAt, or `schedule: "next_slot"`) or published.',
    default: 'draft',
  }),
  tags: ZTags.default([]),
  mediaIds: ZMediaIds.default([]),
  scheduledAt: ZScheduleField,
  schedule: z.literal('next_slot').optional().meta({
    description:
      "`next_slot`: schedule the post at the earliest free posting slot shared by all its targets' channels (status `scheduled`, no `scheduledAt`).",
  }),
  recurrence: ZRecurrence.nullable().optional(),
  targets: ZTargets.default([]).meta({
    example: [
      { channelId: 'chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' },
      {
        channelId: 'chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0X',
        content: 'Launch day! The short version.',
        thread: [{ content: 'What is new, in three posts 🧵' }],
        firstComment: 'Details: https://example.com/launch',
      },
    ],
    description:
      'The channels to publish to, each with the fields that differ from the post. Without targets, publishing only changes the status.',
  }),
});

export const ZUpdatePost = z.object({
  title: ZTitle.optional(),
  content: ZContent.optional(),
  status: ZPostStatus.optional().meta({
    description:
      'A change of status, allowed only from certain statuses (a draft may be scheduled or published, a published post archived, …); any other is 409 `invalid_status_transition` with `details.allowedStatuses`. Scheduling or publishing a post with a target that may already be on the network (`unconfirmed`) is the same 409, with `details.unconfirmedTargets` (their ids) to resolve first.',
  }),
  tags: ZTags.optional(),
  mediaIds: ZMediaIds.optional(),
  scheduledAt: ZScheduleField,
  schedule: z.literal('next_slot').optional().meta({
    description:
      "`next_slot`: schedule the post at the earliest free posting slot shared by all its targets' channels (status `scheduled`, no `scheduledAt`).",
  }),
  recurrence: ZRecurrence.nullable().optional().meta({
    description:
      'Replaces the rule (null: stop repeating); only while the post is a draft or scheduled. Occurrences already published stay; later ones follow the new rule.',
  }),
  targets: ZTargets.optional().meta({
    description: 'Replaces the targets; only while the post is a draft or scheduled.',
  }),
});

export const ZPostIdParam = z.object({ id: z.string() });

/** Submitting a draft for approval: the time its author wants it to go out, if any. */
export const ZSubmitPost = z.object({
  scheduledAt: ZScheduleTime.nullable().optional().meta({
    description:
      'When the post should go out once approved (in the future). Left out or null: as soon as an admin approves it.',
  }),
});
export type SubmitPostInput = z.infer<typeof ZSubmitPost>;

/** An admin's rejection: the comment tells the author what to change. */
export const ZRejectPost = z.object({
  comment: z.string().trim().min(1, 'A rejection needs a comment.').max(2000).meta({
    description: 'What the author should change; shown to them on the post.',
    example: 'Please add the launch link.',
  }),
});
export type RejectPostInput = z.infer<typeof ZRejectPost>;
export const ZTargetIdParam = ZPostIdParam.extend({ targetId: z.string() });

/** What someone found on the network for an `unconfirmed` target (docs/publishing.md). */
export const ZResolveTarget = z
  .object({
    published: z.boolean().meta({
      description:
        '`true`: the post is on the network; `false`: it is not (the target fails, retryable).',
    }),
    url: z.string().max(2048).refine(isWebUrl, 'Must be an absolute http(s) URL.').optional().meta({
      description: 'With `published: true`: where the post is on the network, if known.',
      example: 'https://bsky.app/profile/alice.bsky.social/post/3l6oveex3ii2l',
    }),
  })
  .meta({ id: 'ResolveTarget' });
export type ResolveTargetInput = z.infer<typeof ZResolveTarget>;

/**
 * A bound on a publishing time in the list's query: the format of `from`/`to`, inclusive like
 * them. A post without that time has nothing to compare, so it never matches.
 */
const bound = (field: 'scheduledAt' | 'publishedAt', side: 'from' | 'to') =>
  rangeBound(
    side,
    `Only posts whose \`${field}\` is ${side === 'from' ? 'at or after' : 'at or before'} this time (inclusive); posts without a \`${field}\` never match.`,
  );

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
  channelId: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'Only posts that go to this channel (one of their `targets`).' })
    .optional(),
  recurring: z
    .enum(['true', 'false'])
    .meta({
      description:
        '`true`: only posts that repeat (with a `recurrence`); `false`: only posts that do not.',
    })
    .transform((value) => value === 'true')
    .optional(),
  from: rangeBound('from', 'Created at or after this time.'),
  to: rangeBound('to', 'Created at or before this time.'),
  scheduledFrom: bound('scheduledAt', 'from'),
  scheduledTo: bound('scheduledAt', 'to'),
  publishedFrom: bound('publishedAt', 'from'),
  publishedTo: bound('publishedAt', 'to'),
  sort: z.enum(['-createdAt', 'scheduledAt']).default('-createdAt').meta({
    description:
      '`-createdAt`: newest first (the default). `scheduledAt`: soonest `scheduledAt` first, posts without one last; with `status=scheduled`, what goes out next.',
  }),
});

export const ZPostResponse = ZEnvelope(ZPost, 'PostResponse');

export const ZValidation = z
  .object({
    valid: z.boolean(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).meta({
      description: 'What the networks would refuse, each with the path of the field at fault.',
      example: [
        { path: 'targets[1].content', message: '312 of 300 allowed on Bluesky (12 over).' },
      ],
    }),
  })
  .meta({ id: 'Validation' });
export const ZValidationResponse = ZEnvelope(ZValidation, 'ValidationResponse');
export const ZPostList = ZListEnvelope(ZPost, 'PostList');

export type Post = z.infer<typeof ZPost>;
export type CreatePostInput = z.infer<typeof ZCreatePost>;
export type UpdatePostInput = z.infer<typeof ZUpdatePost>;
export type ListPostsQuery = z.infer<typeof ZListPostsQuery>;
