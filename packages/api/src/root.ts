import { router } from './trpc';
import { integrationsRouter } from './routers/integrations';
import { usersRouter } from './routers/users';

export const appRouter = router({
  users: usersRouter,
  integrations: integrationsRouter,
});

export type AppRouter = typeof appRouter;
