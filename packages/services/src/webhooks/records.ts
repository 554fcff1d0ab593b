import { field, webhooks, type RowOf } from '@chorus/db';
import type { Webhook } from '@chorus/validators';
import { seal, unseal } from '../integrations/encryption';

export type WebhookRow = typeof webhooks.$inferSelect;

/** A webhook's columns the API shows, as the row reader gives them (the list reads so). */
export const webhookFields = {
  id: field.column(webhooks.id),
  url: field.column(webhooks.url),
  events: field.column(webhooks.events),
  description: field.column(webhooks.description),
  active: field.column(webhooks.active),
  disabledReason: field.column(webhooks.disabledReason),
  createdAt: field.timestamp(webhooks.createdAt),
  updatedAt: field.timestamp(webhooks.updatedAt),
};

/**
 * A webhook as the API returns it (docs/webhooks.md): never its secret. A row drizzle read
 * (timestamps as `Date`s) is written so through `asRead`.
 */
export const toWebhook = (row: RowOf<typeof webhookFields>): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  active: row.active,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Binds a sealed secret to its endpoint, so it cannot be replayed onto another. */
const secretContext = (row: Pick<WebhookRow, 'accountId' | 'id'>) =>
  `webhook-secret:${row.accountId}:${row.id}`;

export const sealSecret = (row: Pick<WebhookRow, 'accountId' | 'id'>, secret: string) =>
  seal(secret, secretContext(row));

/** The secrets that sign now: the current one, and the previous one for 24 h after a rotation. */
export function signingSecrets(row: WebhookRow, now = new Date()): string[] {
  const secrets = [unseal(row.secret, secretContext(row))];
  if (row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) {
    secrets.push(unseal(row.previousSecret, secretContext(row)));
  }
  return secrets;
}
