import { createHmac, randomBytes } from 'node:crypto';

/** A new secret as Standard Webhooks writes it: `whsec_` + base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">` for each secret, space-separated (during a rotation, the new and the
 * previous one), so a receiver holding either verifies it.
 */
export function signatureHeader(opts: {
  secrets: string[];
  id: string;
  timestamp: number;
  body: string;
}): string {
  const content = `${opts.id}.${opts.timestamp}.${opts.body}`;
  return opts.secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
    })
    .join(' ');
}
