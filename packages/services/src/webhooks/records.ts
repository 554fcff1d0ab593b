import type { webhooks } from '@chorus/db';
import type { Webhook } from '@chorus/validators';
import { seal, unseal } from '../integrations/encryption';

export type WebhookRow = typeof webhooks.$inferSelect;

/** A webhook as the API returns it (docs/webhooks.md): never its secret. */
export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  active: row.active,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
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
