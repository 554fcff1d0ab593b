import { deleteMedia, getMedia, listMedia, updateMedia } from '@chorus/services';
import {
  ZListMediaQuery,
  ZMediaIdParam,
  ZMediaList,
  ZMediaResponse,
  ZUpdateMedia,
} from '@chorus/validators';
import { z } from 'zod';
import { ok, okPage } from '../envelope';
import { describeError, log } from '../../server/logger';
import { defaultStorage } from '../../server/storage';
import { router, scoped } from '../init';

const tags = ['Media'];

/**
 * Media records. The upload (multipart) and the bytes are served by fetch handlers of their
 * own (`src/media/`), since trpc-to-openapi speaks JSON only.
 */
export const mediaRouter = router({
  list: scoped('content:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/content/media',
        operationId: 'listMedia',
        tags,
        summary: 'List media',
        description: 'Newest first.',
      },
    })
    .input(ZListMediaQuery)
    .output(ZMediaList)
    .query(async ({ ctx, input }) =>
      okPage(
        await listMedia({ db: ctx.db, principal: ctx.principal, page: input, origin: ctx.origin }),
      ),
    ),

  get: scoped('content:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/content/media/{id}',
        operationId: 'getMedia',
        tags,
        summary: 'Get a media record',
      },
    })
    .input(ZMediaIdParam)
    .output(ZMediaResponse)
    .query(async ({ ctx, input }) =>
      ok(
        await getMedia({ db: ctx.db, principal: ctx.principal, id: input.id, origin: ctx.origin }),
      ),
    ),

  update: scoped('content:write')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/api/content/media/{id}',
        operationId: 'updateMedia',
        tags,
        summary: 'Update a media record’s alt text',
        description:
          'Partial update: `altText` is the one field a client changes after upload. The alt text goes out with every post that sends the medium (its `mediaIds`, a target’s or a thread part’s), so a change is refused as a change of those posts’ media: while one is `pending_approval`, a `user` member’s change is 400 `validation_error` on `altText`; while one is `scheduled` and the account requires approval, 403 `approval_required`; while one is `publishing`, anyone’s is 400. The refusal names the post in its message and `details.postId`. Admins change the alt text of pending and approved posts’ media; the same text again is no change.',
      },
      errors: ['approval_required'],
    })
    .input(ZUpdateMedia)
    .output(ZMediaResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await updateMedia({ db: ctx.db, principal: ctx.principal, ...input, origin: ctx.origin })),
    ),

  delete: scoped('content:write')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/api/content/media/{id}',
        operationId: 'deleteMedia',
        tags,
        summary: 'Delete a media record and its bytes',
        description: 'Posts that used it lose the attachment.',
      },
      successStatus: 204,
    })
    .input(ZMediaIdParam)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const { orphan } = await deleteMedia({
        db: ctx.db,
        principal: ctx.principal,
        id: input.id,
        storage: ctx.storage ?? defaultStorage(),
        origin: ctx.origin,
      });
      if (orphan) {
        log('warn', 'media deleted, its bytes not', {
          requestId: ctx.requestId,
          key: orphan.key,
          error: describeError(orphan.error),
        });
      }
    }),
});
