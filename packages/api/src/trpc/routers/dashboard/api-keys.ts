import { createApiKey, listApiKeysOf, revokeApiKeyOf } from '@chorus/services';
import { ZApiKeyIdParam, ZApiKeyListItem, ZCreateApiKey } from '@chorus/validators';
import { dashboardProcedure, router } from '../../init';

/** API keys in the dashboard: the secret comes back from `create` and never again. */
export const apiKeysRouter = router({
  list: dashboardProcedure
    .output(ZApiKeyListItem.array())
    .query(({ ctx }) => listApiKeysOf({ db: ctx.db, principal: ctx.principal })),

  create: dashboardProcedure.input(ZCreateApiKey).mutation(({ ctx, input }) =>
    createApiKey({
      db: ctx.db,
      userId: ctx.principal.userId,
      name: input.name,
      scopes: input.scopes,
      environment: input.environment,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : undefined,
    }),
  ),

  revoke: dashboardProcedure
    .input(ZApiKeyIdParam)
    .mutation(({ ctx, input }) =>
      revokeApiKeyOf({ db: ctx.db, principal: ctx.principal, keyId: input.keyId }),
    ),
});
