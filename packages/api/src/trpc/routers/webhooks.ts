import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from '@chorus/services';
import {
  ZCreateWebhook,
  ZDeliveryIdParam,
  ZListDeliveriesQuery,
  ZListWebhooksQuery,
  ZUpdateWebhook,
  ZWebhookDeliveryList,
  ZWebhookDeliveryResponse,
  ZWebhookIdParam,
  ZWebhookList,
  ZWebhookResponse,
  ZWebhookWithSecretResponse,
} from '@chorus/validators';
import { z } from 'zod';
import { ok, okPage } from '../envelope';
import { adminScoped, router, scoped } from '../init';

const tags = ['Webhooks'];

export const webhooksRouter = router({
  list: scoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/webhooks',
        operationId: 'listWebhooks',
        tags,
        summary: 'List webhooks',
        description: 'Newest first. Secrets are never listed.',
      },
    })
    .input(ZListWebhooksQuery)
    .output(ZWebhookList)
    .query(async ({ ctx, input }) =>
      okPage(await listWebhooks({ db: ctx.db, principal: ctx.principal, page: input })),
    ),

  get: scoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/webhooks/{id}',
        operationId: 'getWebhook',
        tags,
        summary: 'Get a webhook',
      },
    })
    .input(ZWebhookIdParam)
    .output(ZWebhookResponse)
    .query(async ({ ctx, input }) =>
      ok(await getWebhook({ db: ctx.db, principal: ctx.principal, id: input.id })),
    ),

  create: adminScoped('write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/webhooks',
        operationId: 'createWebhook',
        tags,
        summary: 'Create a webhook',
        description:
          'The answer holds the signing `secret` (`whsec_…`), shown this once. `url` must be https on a public address, port 443 or 8443: private, loopback and link-local targets (IPv6 ones embedding IPv4 included) and other ports are refused (400 naming `url`) unless the deployment allows private targets. An account holds at most 50 webhooks (the deployment may set another figure): one more is 409 `webhook_limit_reached`.',
      },
      successStatus: 201,
      errors: ['webhook_limit_reached'],
    })
    .input(ZCreateWebhook)
    .output(ZWebhookWithSecretResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await createWebhook({ db: ctx.db, principal: ctx.principal, input })),
    ),

  update: adminScoped('write')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/api/webhooks/{id}',
        operationId: 'updateWebhook',
        tags,
        summary: 'Update a webhook',
        description: 'Partial update. `active: true` re-enables an endpoint the service disabled.',
      },
    })
    .input(ZUpdateWebhook.extend(ZWebhookIdParam.shape))
    .output(ZWebhookResponse)
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      ok(await updateWebhook({ db: ctx.db, principal: ctx.principal, id, input })),
    ),

  delete: adminScoped('write')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/api/webhooks/{id}',
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete a webhook',
      },
      successStatus: 204,
    })
    .input(ZWebhookIdParam)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteWebhook({ db: ctx.db, principal: ctx.principal, id: input.id });
    }),

  deliveries: scoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/webhooks/{id}/deliveries',
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'The delivery log of a webhook',
        description:
          'Newest first, each with every attempt: status code, duration, the first 1 KiB of the answer, the error.',
      },
    })
    .input(ZListDeliveriesQuery)
    .output(ZWebhookDeliveryList)
    .query(async ({ ctx, input: { id, ...page } }) =>
      okPage(await listDeliveries({ db: ctx.db, principal: ctx.principal, webhookId: id, page })),
    ),

  retry: adminScoped('write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/webhooks/{id}/deliveries/{deliveryId}/retry',
        operationId: 'retryWebhookDelivery',
        tags,
        summary: 'Send a delivery again',
        description:
          'Due now, with the retry schedule started afresh. An empty body. A switched-off webhook (`active: false`) is sent nothing: 409 `webhook_inactive`.',
      },
      errors: ['webhook_inactive'],
    })
    .input(ZDeliveryIdParam)
    .output(ZWebhookDeliveryResponse)
    .mutation(async ({ ctx, input }) =>
      ok(
        await retryDelivery({
          db: ctx.db,
          principal: ctx.principal,
          webhookId: input.id,
          deliveryId: input.deliveryId,
        }),
      ),
    ),

  test: adminScoped('write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/webhooks/{id}/test',
        operationId: 'testWebhook',
        tags,
        summary: 'Send a test event',
        description:
          'A `webhook.test` event to this endpoint only, delivered like any other. An empty body. A switched-off webhook (`active: false`) is sent nothing: 409 `webhook_inactive`.',
      },
      errors: ['webhook_inactive'],
      successStatus: 201,
    })
    .input(ZWebhookIdParam)
    .output(ZWebhookDeliveryResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await sendTestEvent({ db: ctx.db, principal: ctx.principal, webhookId: input.id })),
    ),

  rotateSecret: adminScoped('write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/webhooks/{id}/rotate-secret',
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Rotate the signing secret',
        description:
          'The new `secret` is in this answer only. For 24 hours deliveries carry two signatures, with the new and the previous secret, so receivers can switch without downtime. An empty body.',
      },
    })
    .input(ZWebhookIdParam)
    .output(ZWebhookWithSecretResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await rotateWebhookSecret({ db: ctx.db, principal: ctx.principal, id: input.id })),
    ),
});
