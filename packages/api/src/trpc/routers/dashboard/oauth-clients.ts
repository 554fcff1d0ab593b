import {
  createOAuthClient,
  deleteOAuthClient,
  listOAuthClients,
  rotateOAuthClientSecret,
} from '@chorus/services';
import { ZCreateOAuthClient, ZOAuthClientIdParam } from '@chorus/validators';
import { dashboardAdminProcedure, router } from '../../init';

/** OAuth applications of the account, managed by its admins (docs/security.md). */
export const oauthClientsRouter = router({
  list: dashboardAdminProcedure.query(({ ctx }) =>
    listOAuthClients({ db: ctx.db, principal: ctx.principal }),
  ),

  create: dashboardAdminProcedure
    .input(ZCreateOAuthClient)
    .mutation(({ ctx, input }) =>
      createOAuthClient({ db: ctx.db, principal: ctx.principal, input }),
    ),

  rotateSecret: dashboardAdminProcedure
    .input(ZOAuthClientIdParam)
    .mutation(({ ctx, input }) =>
      rotateOAuthClientSecret({ db: ctx.db, principal: ctx.principal, clientId: input.clientId }),
    ),

  delete: dashboardAdminProcedure
    .input(ZOAuthClientIdParam)
    .mutation(({ ctx, input }) =>
      deleteOAuthClient({ db: ctx.db, principal: ctx.principal, clientId: input.clientId }),
    ),
});
