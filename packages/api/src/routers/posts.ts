import { createPost, deletePost, getPost, listPosts, updatePost } from '@chorus/services';
import {
  ZCreatePost,
  ZListPostsQuery,
  ZPostIdParam,
  ZPostList,
  ZPostResponse,
  ZUpdatePost,
} from '@chorus/validators';
import { z } from 'zod';
import { ok, okPage } from '../envelope';
import { router, scoped } from '../trpc';

const tags = ['Posts'];

const TRANSITIONS =
  'Status changes (decisions §10): draft → scheduled (needs a future `scheduledAt`) or published; scheduled → draft (clears `scheduledAt`) or published; published → archived; archived → draft. Any other is 409 `invalid_status_transition`, whose `details` name `currentStatus` and `allowedStatuses`.';

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

  create: scoped('content:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/content/posts',
        operationId: 'createPost',
        tags,
        summary: 'Create a post',
        description: `Created as \`draft\` unless \`status\` says \`scheduled\` or \`published\`, with the conditions of those changes from draft. ${TRANSITIONS}`,
      },
      successStatus: 201,
      errors: ['invalid_status_transition'],
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
        description: `Partial update: fields left out are kept; \`mediaIds\` replaces the list. ${TRANSITIONS}`,
      },
      errors: ['invalid_status_transition'],
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
        description: 'A scheduled post deleted before its time is never published.',
      },
      successStatus: 204,
    })
    .input(ZPostIdParam)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deletePost({ db: ctx.db, principal: ctx.principal, id: input.id });
    }),
});
