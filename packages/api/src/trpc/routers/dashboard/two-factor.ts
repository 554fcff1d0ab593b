import {
  beginTwoFactorEnrollment,
  confirmTwoFactorEnrollment,
  disableTwoFactor,
  twoFactorStatus,
} from '@chorus/services';
import { ZTotpCode } from '@chorus/validators';
import { dashboardProcedure, router } from '../../init';

/**
 * Two-factor enrollment, turned on and off here only: a bearer token cannot switch it either way
 * (docs/oauth.md).
 */
export const twoFactorRouter = router({
  status: dashboardProcedure.query(({ ctx }) =>
    twoFactorStatus({ db: ctx.db, principal: ctx.principal }),
  ),

  begin: dashboardProcedure.mutation(({ ctx }) =>
    beginTwoFactorEnrollment({ db: ctx.db, principal: ctx.principal }),
  ),

  confirm: dashboardProcedure
    .input(ZTotpCode)
    .mutation(({ ctx, input }) =>
      confirmTwoFactorEnrollment({ db: ctx.db, principal: ctx.principal, code: input.code }),
    ),

  disable: dashboardProcedure
    .input(ZTotpCode)
    .mutation(({ ctx, input }) =>
      disableTwoFactor({ db: ctx.db, principal: ctx.principal, code: input.code }),
    ),
});
