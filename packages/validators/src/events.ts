import { z } from 'zod';

/** Every event type the service emits (docs/webhooks.md), the catalogue webhooks subscribe to. */
export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'post.created',
  'post.updated',
  'post.submitted',
  'post.approved',
  'post.rejected',
  'post.scheduled',
  'post.publishing',
  'post.published',
  'post.failed',
  'post.deleted',
  'media.uploaded',
  'media.deleted',
  'integration.connected',
  'integration.disconnected',
  'integration.needs_reconnect',
  'webhook.test',
] as const;

export const ZEventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof ZEventType>;
