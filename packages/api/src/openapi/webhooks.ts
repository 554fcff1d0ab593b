import { EVENT_TYPES, type EventType } from '@chorus/validators';
import type { OpenAPIObject } from 'trpc-to-openapi';

type SchemaObject = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];

/** The resource each event type carries in `data.object` (docs/webhooks.md). */
const EVENT_OBJECTS: Record<EventType, string> = {
  'user.created': 'User',
  'user.updated': 'User',
  'user.deleted': 'User',
  'post.created': 'Post',
  'post.updated': 'Post',
  'post.submitted': 'Post',
  'post.approved': 'Post',
  'post.rejected': 'Post',
  'post.scheduled': 'Post',
  'post.publishing': 'Post',
  'post.published': 'Post',
  'post.failed': 'Post',
  'post.deleted': 'Post',
  'media.uploaded': 'Media',
  'media.deleted': 'Media',
  'integration.connected': 'ConnectedIntegration',
  'integration.disconnected': 'ConnectedIntegration',
  'integration.needs_reconnect': 'ConnectedIntegration',
  'webhook.test': 'Webhook',
};

/** `post.published` → `PostPublishedEvent`. */
const eventSchemaId = (type: string) =>
  `${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Event`;

/** One payload schema per event type, so a client can generate a type for each. */
export function eventSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      eventSchemaId(type),
      {
        type: 'object' as const,
        description: `The \`${type}\` event, as delivered to webhooks.`,
        required: ['id', 'type', 'timestamp', 'data'],
        properties: {
          id: {
            type: 'string' as const,
            description: 'The event id (`evt_…`), also sent as `webhook-id`.',
          },
          type: { type: 'string' as const, const: type },
          timestamp: { type: 'string' as const, format: 'date-time' },
          data: {
            type: 'object' as const,
            required: ['object'],
            properties: {
              object: {
                $ref: `#/components/schemas/${EVENT_OBJECTS[type]}`,
                description: 'The resource as the REST API returns it.',
              },
            },
          },
        },
      },
    ]),
  );
}

const SIGNING = `Signed per Standard Webhooks: \`webhook-signature\` is \`v1,\` + base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{body}\` with the secret's key (the base64 after \`whsec_\`); for 24 hours after a rotation it carries two signatures, space-separated. Answer 2xx within 10 s; anything else is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; 410 disables the endpoint. Deliveries are at least once: dedupe on \`webhook-id\`.`;

const signatureHeaders = [
  ['webhook-id', 'The event id: the same on every attempt.'],
  ['webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'],
  ['webhook-signature', 'One or more `v1,<base64>` signatures, space-separated.'],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}));

/** The OpenAPI 3.1 `webhooks` section: what Chorus POSTs to a subscribed endpoint. */
export function webhookOperations() {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `on${eventSchemaId(type)}`,
          summary: `\`${type}\``,
          description: SIGNING,
          tags: ['Webhooks'],
          parameters: signatureHeaders,
          // The receiver checks the signature headers above, not a credential of its own API.
          security: [],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${eventSchemaId(type)}` },
              },
            },
          },
          responses: {
            '200': { description: 'Received (any 2xx).' },
            '410': { description: 'Gone: the endpoint is disabled at once.' },
          },
        },
      },
    ]),
  );
}
