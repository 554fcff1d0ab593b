import { z } from 'zod';
import { paginationQuery, ZTimestamp } from './common';
import { ZEnvelope, ZListEnvelope } from './envelope';
import { EVENT_TYPES, ZEventType } from './events';

const ZUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => URL.canParse(value), 'Must be an absolute URL.')
  .meta({
    description:
      'https, on a public address (http to loopback only where the deployment allows private targets).',
    example: 'https://hooks.example.com/chorus',
  });

/** Event types to subscribe to, or `["*"]` for all; duplicates dropped. */
const ZEvents = z
  .array(z.union([ZEventType, z.literal('*')]))
  .min(1, 'Choose at least one event, or "*" for every one.')
  .max(EVENT_TYPES.length + 1)
  .transform((types) => (types.includes('*') ? ['*'] : [...new Set(types)]))
  .meta({
    description: 'Event types of the catalogue, or `["*"]` for every type.',
    example: ['post.published'],
  });

const ZDescription = z.string().max(500);

export const ZCreateWebhook = z.object({
  url: ZUrl,
  events: ZEvents,
  description: ZDescription.default(''),
  active: z.boolean().default(true),
});

export const ZUpdateWebhook = z.object({
  url: ZUrl.optional(),
  events: ZEvents.optional(),
  description: ZDescription.optional(),
  active: z.boolean().optional().meta({
    description:
      '`true` re-enables an endpoint the service disabled (and clears `disabledReason`).',
  }),
});

export const ZWebhookIdParam = z.object({ id: z.string() });
export const ZDeliveryIdParam = z.object({ id: z.string(), deliveryId: z.string() });

export const ZWebhook = z
  .object({
    id: z.string().meta({ example: 'whk_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string(),
    active: z.boolean(),
    disabledReason: z.enum(['gone', 'failing']).nullable().meta({
      description:
        'Why the service turned the endpoint off: `gone` (it answered 410) or `failing` (every delivery failed for 5 days). null otherwise.',
    }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Webhook' });

export const ZWebhookWithSecret = ZWebhook.extend({
  secret: z.string().meta({
    description: 'The signing secret (Standard Webhooks), shown only now.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
}).meta({ id: 'WebhookWithSecret' });

export const ZWebhookAttempt = z.object({
  attempt: z.number().int(),
  at: ZTimestamp,
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  responseExcerpt: z.string().nullable().meta({ description: 'The first 1 KiB of the answer.' }),
  error: z.string().nullable().meta({ example: 'timeout' }),
});

export const ZWebhookDelivery = z
  .object({
    id: z.string().meta({ example: 'del_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    nextAttemptAt: ZTimestamp.nullable(),
    attempts: z.array(ZWebhookAttempt).meta({ description: 'Every attempt, oldest first.' }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'WebhookDelivery' });

export const ZListDeliveriesQuery = paginationQuery(25).extend(ZWebhookIdParam.shape);
export const ZListWebhooksQuery = paginationQuery(25);

export const ZWebhookResponse = ZEnvelope(ZWebhook, 'WebhookResponse');
export const ZWebhookWithSecretResponse = ZEnvelope(
  ZWebhookWithSecret,
  'WebhookWithSecretResponse',
);
export const ZWebhookList = ZListEnvelope(ZWebhook, 'WebhookList');
export const ZWebhookDeliveryResponse = ZEnvelope(ZWebhookDelivery, 'WebhookDeliveryResponse');
export const ZWebhookDeliveryList = ZListEnvelope(ZWebhookDelivery, 'WebhookDeliveryList');

export type Webhook = z.infer<typeof ZWebhook>;
export type WebhookDelivery = z.infer<typeof ZWebhookDelivery>;
export type CreateWebhookInput = z.infer<typeof ZCreateWebhook>;
export type UpdateWebhookInput = z.infer<typeof ZUpdateWebhook>;
