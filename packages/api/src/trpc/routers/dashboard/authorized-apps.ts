import { listAuthorizedApps, revokeAuthorizedApp } from '@chorus/services';
import { ZOAuthClientIdParam } from '@chorus/validators';
import { dashboardProcedure, router } from '../../init';

/** The OAuth applications the signed-in user authorized; each user sees and revokes their own. */
export const authorizedAppsRouter = router({
  list: dashboardProcedure.query(({ ctx }) =>
    listAuthorizedApps({ db: ctx.db, principal: ctx.principal }),
  ),

  revoke: dashboardProcedure
    .input(ZOAuthClientIdParam)
    .mutation(({ ctx, input }) =>
      revokeAuthorizedApp({ db: ctx.db, principal: ctx.principal, clientId: input.clientId }),
    ),
});
