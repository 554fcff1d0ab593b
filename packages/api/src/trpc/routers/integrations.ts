import {
  assertConnectable,
  completeOAuthCallback,
  connectIntegration,
  disconnectIntegration,
  getIntegration,
  listConnectedIntegrations,
  listIntegrations,
} from '@chorus/services';
import {
  ZConnectedIntegrationList,
  ZConnectIntegration,
  ZConnectResult,
  ZDisconnectResult,
  ZIntegrationDetail,
  ZIntegrationIdParam,
  ZIntegrationList,
  ZListIntegrationsQuery,
  ZOAuthCallbackQuery,
  ZRedirect,
} from '@chorus/validators';
import { z } from 'zod';
import { adminScoped, publicProcedure, router, scoped } from '../init';

const tags = ['Integrations'];

// Order matters: REST routes match in declaration order, so `/connected` comes before
// `/{integrationId}` (the route table refuses a literal path shadowed by an earlier template).
export const integrationsRouter = router({
  list: scoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/integrations',
        operationId: 'listIntegrations',
        tags,
        summary: 'List available integrations',
      },
    })
    .input(ZListIntegrationsQuery)
    .output(ZIntegrationList)
    .query(({ ctx, input }) => listIntegrations({ origin: ctx.origin, ...input })),

  connected: scoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/integrations/connected',
        operationId: 'listConnectedIntegrations',
        tags,
        summary: 'Integrations connected to the account',
      },
    })
    .input(z.object({}))
    .output(ZConnectedIntegrationList)
    .query(({ ctx }) => listConnectedIntegrations({ db: ctx.db, principal: ctx.principal })),

  get: scoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/integrations/{integrationId}',
        operationId: 'getIntegration',
        tags,
        summary: 'Integration details',
      },
    })
    .input(ZIntegrationIdParam)
    .output(ZIntegrationDetail)
    .query(({ ctx, input }) =>
      getIntegration({ origin: ctx.origin, integrationId: input.integrationId }),
    ),

  // Connecting and disconnecting are the account's business: admins only (docs/security.md).
  connect: adminScoped('write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/integrations/connect/{integrationId}',
        operationId: 'connectIntegration',
        tags,
        summary: 'Start a connection',
        description:
          "Admins only. A `coming_soon` integration is refused (400 `integration_unavailable`) before the body is looked at: whatever its content type or JSON. OAuth integrations answer 200 with `authUrl`: send the browser there within 10 minutes. `redirectUrl` must be on this service's origin or on one listed in `CHORUS_INTEGRATION_REDIRECT_ORIGINS`. The third party returns it to the callback, which redirects to `redirectUrl` with `status=connected&provider=…` or `status=error&provider=…&error=…`. API-key integrations are connected at once (201); connecting again replaces the stored credentials. Publishing networks check the credentials by listing the account's channels (`GET /api/content/channels`): Bluesky takes `handle` and an app password as `apiKey` (and `serviceUrl` for a PDS other than bsky.social), Mastodon the instance as `serviceUrl` and an access token as `apiKey`, or no `apiKey` to sign in on the instance: then it answers 200 with the instance's `authUrl` like an OAuth integration (Chorus registers itself on the instance the first time anyone connects through it). Credentials the network refuses are 400 `validation_error` naming `apiKey`; a `serviceUrl` on a private or loopback address is 400 naming `serviceUrl` (unless the deployment allows private targets); a network that cannot be reached is 502 `integration_unreachable`. After an OAuth grant the channels are listed the same way; if that fails the browser returns with `error=channel_discovery_failed` and nothing is stored.",
      },
      successStatuses: {
        200: { description: 'OAuth flow started', schema: 'ConnectResult' },
        201: { description: 'Connected with the API key', schema: 'ConnectedIntegration' },
      },
      errors: [
        'integration_unavailable',
        'missing_api_key',
        'integration_not_configured',
        'integration_unreachable',
      ],
      // The REST door: before the body is parsed (its content type, its JSON, its keys).
      beforeBody: ({ integrationId }) => {
        if (integrationId !== undefined) assertConnectable(integrationId);
      },
    })
    // The tRPC door, whose input carries the id: ahead of `.input()`, before it is validated.
    .use(async ({ getRawInput, next }) => {
      const raw = (await getRawInput()) as { integrationId?: unknown } | null | undefined;
      if (typeof raw?.integrationId === 'string') assertConnectable(raw.integrationId);
      return next();
    })
    .input(ZConnectIntegration)
    .output(ZConnectResult)
    .mutation(
      async ({ ctx, input: { integrationId, redirectUrl, apiKey, handle, serviceUrl } }) => {
        const result = await connectIntegration({
          db: ctx.db,
          principal: ctx.principal,
          origin: ctx.origin,
          integrationId,
          redirectUrl,
          apiKey,
          handle,
          serviceUrl,
        });
        if (result.status === 'connected') ctx.response.status = 201;
        return result;
      },
    ),

  disconnect: adminScoped('write')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/api/integrations/disconnect/{integrationId}',
        operationId: 'disconnectIntegration',
        tags,
        summary: 'Disconnect an integration',
        description:
          'Admins only. Revokes the grant at the third party (best effort), then deletes the stored credentials.',
      },
    })
    .input(ZIntegrationIdParam)
    .output(ZDisconnectResult)
    .mutation(({ ctx, input }) =>
      disconnectIntegration({
        db: ctx.db,
        principal: ctx.principal,
        integrationId: input.integrationId,
      }),
    ),

  callback: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/integrations/callback/{integrationId}',
        operationId: 'integrationCallback',
        tags,
        summary: 'OAuth return from the third party',
        description:
          'Where the third party sends the browser back. Authorised by `state` instead of a bearer token. Redirects (302) to the `redirectUrl` given at connect time.',
        protect: false,
      },
      redirect: true,
      errors: ['invalid_state'],
    })
    .input(ZOAuthCallbackQuery)
    .output(ZRedirect)
    // A query, as it is a GET; it is not idempotent, so HEAD does not run it (routes.ts).
    .query(({ ctx, input }) => completeOAuthCallback({ db: ctx.db, ...input })),
});
