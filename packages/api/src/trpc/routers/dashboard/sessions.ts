import { endSessions } from '@chorus/services';
import { dashboardProcedure, router } from '../../init';

/** "Sign out everywhere": ends every dashboard session of the signed-in user, this one too. */
export const sessionsRouter = router({
  endAll: dashboardProcedure.mutation(async ({ ctx }) => {
    await endSessions({ db: ctx.db, userId: ctx.principal.userId });
    return { ended: true };
  }),
});
