import { router } from './init';
import { accountRouter } from './routers/account';
import { apiKeysRouter } from './routers/dashboard/api-keys';
import { authorizedAppsRouter } from './routers/dashboard/authorized-apps';
import { oauthClientsRouter } from './routers/dashboard/oauth-clients';
import { sessionsRouter } from './routers/dashboard/sessions';
import { twoFactorRouter } from './routers/dashboard/two-factor';
import { integrationsRouter } from './routers/integrations';
import { postsRouter } from './routers/posts';
import { channelsRouter } from './routers/channels';
import { mediaRouter } from './routers/media';
import { analyticsRouter } from './routers/analytics';
import { webhooksRouter } from './routers/webhooks';
import { usersRouter } from './routers/users';

export const appRouter = router({
  users: usersRouter,
  account: accountRouter,
  integrations: integrationsRouter,
  posts: postsRouter,
  channels: channelsRouter,
  media: mediaRouter,
  analytics: analyticsRouter,
  webhooks: webhooksRouter,
  // The dashboard's procedures: tRPC only (no REST route), for signed-in users.
  apiKeys: apiKeysRouter,
  oauthClients: oauthClientsRouter,
  twoFactor: twoFactorRouter,
  authorizedApps: authorizedAppsRouter,
  sessions: sessionsRouter,
});

export type AppRouter = typeof appRouter;
