import {
  approvePost,
  createPost,
  deletePost,
  getPost,
  listPostActivity,
  listPosts,
  rejectPost,
  resolveTarget,
  retryPost,
  submitPost,
  updatePost,
  validatePost,
} from '@chorus/services';
import {
  ZActivityList,
  ZActivityQuery,
  ZCreatePost,
  ZValidationResponse,
  ZListPostsQuery,
  ZPostIdParam,
  ZPostList,
  ZPostResponse,
  ZRejectPost,
  ZResolveTarget,
  ZSubmitPost,
  ZTargetIdParam,
  ZUpdatePost,
} from '@chorus/validators';
import { z } from 'zod';
import { ok, okPage } from '../envelope';
import { adminScoped, router, scoped } from '../init';

const tags = ['Posts'];

const TRANSITIONS =
  'Status changes: draft → scheduled (needs a future `scheduledAt`) or published; pending_approval → draft (withdrawn); scheduled → draft (clears `scheduledAt`) or published (a recurring post: archived instead, never published itself); published → archived; failed → draft or archived; archived → draft. Submitting for approval and approving are their own endpoints (`submit`, `approve`). Any other is 409 `invalid_status_transition`, whose `details` name `currentStatus` and `allowedStatuses`. While the account requires approval (`GET /api/account/settings`), a member with the `user` role cannot schedule, publish, or change a scheduled post (403 `approval_required`): they submit it, and an admin approves it. A post with `targets` asked to become `published` answers in `publishing`: its targets are sent, each with its own `status`, and the post ends `published` when every target is, `failed` when any failed or is `unconfirmed` (see `retry` and `resolve`). `publishing` is left only by the engine. A post with an `unconfirmed` target (it may already be on the network) can become a draft, but is not scheduled, published or submitted again until the target is resolved: 409 `invalid_status_transition` whose `details.unconfirmedTargets` lists them.';

const TARGETS =
  "`targets` lists the channels (`GET /api/content/channels`) the post goes to, each with the fields that differ from the post (`content`, `mediaIds`, `firstComment`, `thread`); a channel of another account is refused like an unknown one (400 naming `targets[i].channelId`). Scheduling or publishing checks every target against its network's limits and rules: an invalid one is 400 `validation_error` whose `details.issues` have paths such as `targets[1].content` (`POST /api/content/posts/validate` gives the same answer without writing).";

const RECURRENCE =
  "`recurrence` repeats a post: an RRULE (`FREQ` DAILY, WEEKLY or MONTHLY, `INTERVAL`, `BYDAY`, `COUNT` up to 1,000 or `UNTIL`; any other part is 400 `validation_error` naming `recurrence`) read in the account's time zone from `scheduledAt`, always the first occurrence (even on a day the rule would not pick; an `UNTIL` before it is 400), so a weekly 09:00 stays 09:00 across daylight-saving changes. Once the post is `scheduled`, Chorus publishes a copy of it (`recurrenceOf`: the original) at each occurrence, with the post's content and targets as they are then: editing the original changes later occurrences only. `nextOccurrences` lists the next five. After downtime a series publishes its latest missed occurrence once, not one copy per missed interval. Unscheduling, archiving or deleting the original, or setting `recurrence` to null, stops the series. A post with a `published` or `unconfirmed` target never takes a rule (400 naming `recurrence`): each copy would go to those channels again.";

export const postsRouter = router({
  list: scoped('content:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/content/posts',
        operationId: 'listPosts',
        tags,
        summary: 'List posts',
        description:
          'Newest first unless `sort` says otherwise. `q` is plain text (`%` and `_` match themselves), searched in title and content. `from`/`to` bound `createdAt`, `scheduledFrom`/`scheduledTo` bound `scheduledAt` and `publishedFrom`/`publishedTo` bound `publishedAt`, every bound inclusive; a post without `scheduledAt` (or `publishedAt`) never matches a bound on it. A start after its end is 400 `validation_error` naming the start. All filters combine, with each other and with `page`, `limit` and `sort`.',
      },
    })
    .input(ZListPostsQuery)
    .output(ZPostList)
    .query(async ({ ctx, input }) =>
      okPage(await listPosts({ db: ctx.db, principal: ctx.principal, query: input })),
    ),

  // Before `get`: REST routes match in declaration order.
  validate: scoped('content:read')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/content/posts/validate',
        operationId: 'validatePost',
        tags,
        summary: 'Check a post against its channels, without saving it',
        description: `Takes the body of \`POST /api/content/posts\` and answers 200 with \`valid\` and the \`issues\` that scheduling or publishing it would refuse: unknown channels or media, and each target against its network (length counted by the network's own rule, attachments, types and sizes, threads, first comments, and rules of the network's own such as Bluesky's 3,000 bytes). Nothing is written. A body that is not a valid post at all is 400 \`validation_error\`, as on create. ${TARGETS}`,
      },
    })
    .input(ZCreatePost)
    .output(ZValidationResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await validatePost({ db: ctx.db, principal: ctx.principal, input })),
    ),

  get: scoped('content:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/content/posts/{id}',
        operationId: 'getPost',
        tags,
        summary: 'Get a post',
      },
    })
    .input(ZPostIdParam)
    .output(ZPostResponse)
    .query(async ({ ctx, input }) =>
      ok(await getPost({ db: ctx.db, principal: ctx.principal, id: input.id })),
    ),

  activity: scoped('content:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/content/posts/{id}/activity',
        operationId: 'listPostActivity',
        tags,
        summary: "A post's activity: who did what, and when",
        description:
          'Newest first. Each entry is written in the same transaction as the change it records: created, edited (the fields), submitted, withdrawn, approved, rejected (with the comment), scheduled, unscheduled, publishing, each target published, failed or unconfirmed, retried, resolved, repeated (a series published a copy), archived, restored. `actorId` is null for what Chorus did itself (the scheduler, publishing).',
      },
    })
    .input(ZActivityQuery)
    .output(ZActivityList)
    .query(async ({ ctx, input: { id, ...page } }) =>
      okPage(await listPostActivity({ db: ctx.db, principal: ctx.principal, id, page })),
    ),

  create: scoped('content:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/content/posts',
        operationId: 'createPost',
        tags,
        summary: 'Create a post',
        description: `Created as \`draft\` unless \`status\` says \`scheduled\` or \`published\`, with the conditions of those changes from draft. ${TRANSITIONS} ${TARGETS} ${RECURRENCE}`,
      },
      successStatus: 201,
      errors: ['invalid_status_transition', 'approval_required'],
    })
    .input(ZCreatePost)
    .output(ZPostResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await createPost({ db: ctx.db, principal: ctx.principal, input })),
    ),

  update: scoped('content:write')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/api/content/posts/{id}',
        operationId: 'updatePost',
        tags,
        summary: 'Update a post',
        description: `Partial update: fields left out are kept; \`mediaIds\` and \`targets\` replace their lists. \`targets\` can change while the post is a draft or scheduled (otherwise 400 naming \`targets\`), \`content\` and \`mediaIds\` at any time but while it is \`publishing\` (400 naming the field: the targets still to go would send the new ones); a channel that stays a target keeps its target's \`id\`. A \`published\` target (never sent again) and an \`unconfirmed\` one (it may already be on the network; until it is resolved) are locked: a new \`targets\` must hold each, sending what it sent (send it back as the post answers it; its place in the list may change), or the update is refused whole, 409 \`target_locked\`, whose \`details.lockedTargets\` name each (\`targetId\`, \`channelId\`, \`status\`, \`change\`: \`removed\` or \`changed\`, \`path\`, \`message\`). Dropping one would lose its \`url\` and \`externalId\`, and adding its channel back would send the post there again. A locked target whose channel or media were deleted since is accepted back as it is, and one keeps what it sent when the post's \`content\` or \`mediaIds\` it falls back to change: the old value becomes its own (answered in its \`content\`, \`mediaIds\`), its \`externalId\` and idempotency keys unchanged. A field sent with the value the post has is no change (a client may send the whole post back, even where changing that field is refused); an update that changes nothing answers the post as it is, keeps \`updatedAt\` and sends no event. ${TRANSITIONS} ${TARGETS} ${RECURRENCE}`,
      },
      errors: ['invalid_status_transition', 'target_locked', 'approval_required'],
    })
    .input(ZUpdatePost.extend(ZPostIdParam.shape))
    .output(ZPostResponse)
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      ok(await updatePost({ db: ctx.db, principal: ctx.principal, id, input })),
    ),

  delete: scoped('content:write')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/api/content/posts/{id}',
        operationId: 'deletePost',
        tags,
        summary: 'Delete a post',
        description:
          'A scheduled post deleted before its time is never published. A `publishing` post cannot be deleted (409 `invalid_status_transition`): its targets are on their way to the networks; delete it once publishing ends.',
      },
      errors: ['invalid_status_transition'],
      successStatus: 204,
    })
    .input(ZPostIdParam)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deletePost({ db: ctx.db, principal: ctx.principal, id: input.id });
    }),

  retry: scoped('content:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/content/posts/{id}/retry',
        operationId: 'retryPost',
        tags,
        summary: 'Send the failed targets of a failed post again',
        description:
          'The post goes from `failed` to `publishing` and its `failed` targets become `pending` again (fresh attempts); published targets are never sent again, and `unconfirmed` ones wait to be resolved (they may already be on the network). Answers the post in `publishing` and records `post.publishing`. The targets it sends are checked against their networks first, as publishing checks them (400 `validation_error` naming the target: a failed post can be edited before its retry). 409 `invalid_status_transition` when the post is not `failed`, or when none of its targets failed (only unconfirmed ones: resolve them first).',
      },
      errors: ['invalid_status_transition', 'approval_required'],
    })
    .input(ZPostIdParam)
    .output(ZPostResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await retryPost({ db: ctx.db, principal: ctx.principal, id: input.id })),
    ),

  submit: scoped('content:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/content/posts/{id}/submit',
        operationId: 'submitPost',
        tags,
        summary: 'Submit a draft for approval',
        description:
          'A `draft` becomes `pending_approval` and waits for an admin (`approve` or `reject`); `scheduledAt` is when it should go out once approved (none: as soon as it is approved). The post is checked against its channels first, as scheduling would (400 `validation_error`). Clears the last `rejection`. Records `post.submitted`. Any member may submit, whether or not the account requires approval; 409 `invalid_status_transition` for a post that is not a draft.',
      },
      errors: ['invalid_status_transition'],
    })
    .input(ZSubmitPost.extend(ZPostIdParam.shape))
    .output(ZPostResponse)
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      ok(await submitPost({ db: ctx.db, principal: ctx.principal, id, input })),
    ),

  approve: adminScoped('content:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/content/posts/{id}/approve',
        operationId: 'approvePost',
        tags,
        summary: 'Approve a post pending approval',
        description:
          'Admins only. The post becomes `scheduled` at its `scheduledAt`, or, when it has none or that time has passed, is published now (with targets it answers in `publishing`). It is checked against its channels again (400 `validation_error`). Records `post.approved`, then `post.scheduled`, `post.publishing` or `post.published`. 409 `invalid_status_transition` for a post that is not `pending_approval`.',
      },
      errors: ['invalid_status_transition'],
    })
    .input(ZPostIdParam)
    .output(ZPostResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await approvePost({ db: ctx.db, principal: ctx.principal, id: input.id })),
    ),

  reject: adminScoped('content:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/content/posts/{id}/reject',
        operationId: 'rejectPost',
        tags,
        summary: 'Reject a post pending approval, with a comment',
        description:
          'Admins only. The post goes back to `draft` (its `scheduledAt` cleared) and its `rejection` holds the comment, the admin and the time, for the author to read until they submit it again. `comment` is required (1–2,000 characters). Records `post.rejected`. 409 `invalid_status_transition` for a post that is not `pending_approval`.',
      },
      errors: ['invalid_status_transition'],
    })
    .input(ZRejectPost.extend(ZPostIdParam.shape))
    .output(ZPostResponse)
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      ok(await rejectPost({ db: ctx.db, principal: ctx.principal, id, input })),
    ),

  resolve: scoped('content:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/content/posts/{id}/targets/{targetId}/resolve',
        operationId: 'resolveTarget',
        tags,
        summary: 'Settle an unconfirmed target',
        description:
          'A target is `unconfirmed` when an attempt\'s outcome is unknown on a network without idempotency keys (a timeout after the request left): Chorus never sends it again by itself, since that could post twice. Look on the network, then say what you found: `{ "published": true, "url": "…" }` makes it `published`; `{ "published": false }` makes it `failed` (retryable with `retry`). The post then ends as the engine would end it: `published` once every target is, otherwise `failed`. 409 `invalid_status_transition` for a target that is not `unconfirmed`; 404 for a target that is not this post\'s.',
      },
      errors: ['invalid_status_transition'],
    })
    .input(ZResolveTarget.extend(ZTargetIdParam.shape))
    .output(ZPostResponse)
    .mutation(async ({ ctx, input: { id, targetId, ...input } }) =>
      ok(await resolveTarget({ db: ctx.db, principal: ctx.principal, id, targetId, input })),
    ),
});
