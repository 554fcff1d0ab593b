import {
  createUser,
  deleteUser,
  getUser,
  listUsers,
  listUsersInFull,
  updateUser,
} from '@chorus/services';
import {
  ZCreateUser,
  ZListUsersQuery,
  ZUpdateUser,
  ZUser,
  ZUserIdParam,
  ZUserList,
  ZUserSummary,
} from '@chorus/validators';
import { z } from 'zod';
import { usersPage } from '../envelope';
import { adminScoped, router, scoped } from '../init';

const tags = ['Users'];

export const usersRouter = router({
  list: adminScoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/users',
        operationId: 'listUsers',
        tags,
        summary: 'List users',
        description:
          'Newest first. Page by number (`page`, `limit`) or, for deep pages, by cursor: send `startingAfter` with the last id you have; the answer then carries `meta.pagination.nextCursor`, null on the last page. An unknown id, or one of another account, is a 400 `validation_error` on `startingAfter`.',
      },
    })
    .input(ZListUsersQuery)
    .output(ZUserList)
    .query(async ({ ctx, input: { page, limit, ...filters } }) =>
      usersPage(
        await listUsers({
          db: ctx.db,
          principal: ctx.principal,
          page: { page, limit },
          ...filters,
        }),
        filters.startingAfter !== undefined,
      ),
    ),

  /**
   * The list with each user in full (tRPC only): the dashboard's users page shows and edits
   * each user's last sign-in and notification setting, which the list item does not carry
   * (the spec's list answers summaries), and so reads no user again.
   */
  listInFull: adminScoped('read')
    .input(ZListUsersQuery)
    .output(ZUserList.extend({ data: z.array(ZUser) }))
    .query(async ({ ctx, input: { page, limit, ...filters } }) =>
      usersPage(
        await listUsersInFull({
          db: ctx.db,
          principal: ctx.principal,
          page: { page, limit },
          ...filters,
        }),
        filters.startingAfter !== undefined,
      ),
    ),

  get: scoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/users/{userId}',
        operationId: 'getUser',
        tags,
        summary: 'Get a user',
      },
    })
    .input(ZUserIdParam)
    .output(ZUser)
    .query(({ ctx, input }) =>
      getUser({ db: ctx.db, principal: ctx.principal, userId: input.userId }),
    ),

  create: adminScoped('write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/users',
        operationId: 'createUser',
        tags,
        summary: 'Create a user',
      },
      successStatus: 201,
      errors: ['email_already_exists'],
    })
    .input(ZCreateUser)
    .output(ZUserSummary)
    .mutation(({ ctx, input }) => createUser({ db: ctx.db, principal: ctx.principal, input })),

  update: scoped('write')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/api/users/{userId}',
        operationId: 'updateUser',
        tags,
        summary: 'Update a user',
        description:
          "Partial update: fields left out are kept. Admins may update anyone in the account and change roles; other users may update only themselves, not their role. A bearer token changing its own user's `password` must send `currentPassword` (as must a dashboard session changing its own `password` or `email`); `settings.twoFactorAuth` is turned on and off on the dashboard's Security page, with a code (403 over a bearer token or one's own session); an admin's session may turn another user's off, the reset for a lost authenticator. A password or role change ends the user's dashboard sessions.",
      },
    })
    .meta({ errors: ['email_already_exists', 'forbidden', 'last_admin'] })
    .input(ZUpdateUser.extend(ZUserIdParam.shape))
    .output(ZUser)
    .mutation(({ ctx, input: { userId, ...input } }) =>
      updateUser({ db: ctx.db, principal: ctx.principal, userId, input }),
    ),

  delete: adminScoped('write')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/api/users/{userId}',
        operationId: 'deleteUser',
        tags,
        summary: 'Delete a user permanently',
      },
      successStatus: 204,
      errors: ['last_admin'],
    })
    .input(ZUserIdParam)
    .output(z.void())
    .mutation(({ ctx, input }) =>
      deleteUser({ db: ctx.db, principal: ctx.principal, userId: input.userId }),
    ),
});
