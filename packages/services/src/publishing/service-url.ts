import { AppError } from '../shared/errors';
import { checkTarget, TargetRefused } from '../webhooks/targets';
import { webhookSettings } from '../webhooks/settings';

/**
 * A connection's own server (a Bluesky PDS, a Mastodon instance) is an address a user chose:
 * like a webhook's, it must be https on a public address, unless the deployment allows private
 * targets (the webhooks' setting, CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS). 400 naming `serviceUrl`.
 */
export async function assertServiceAllowed(serviceUrl: string) {
  try {
    await checkTarget(serviceUrl, webhookSettings().allowPrivateTargets);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    const message = error.message.replace(/^The URL/, 'serviceUrl');
    throw new AppError('validation_error', message, {
      issues: [{ path: 'serviceUrl', message }],
    });
  }
}
