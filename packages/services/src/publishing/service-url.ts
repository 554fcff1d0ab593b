import { AppError } from '../shared/errors';
import { guardedFetch } from '../webhooks/guarded-fetch';
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
    throw serviceUrlRefused(error);
  }
}

/** A refusal of the server's address as the 400 naming `serviceUrl` a connect answers. */
export function serviceUrlRefused(error: TargetRefused) {
  const message = error.message.replace(/^The URL/, 'serviceUrl');
  return new AppError('validation_error', message, {
    issues: [{ path: 'serviceUrl', message }],
  });
}

/**
 * Every call to a connection's own server, not only the connect's check: the webhooks' rule
 * at each request, the setting read then, and the address checked as the connection resolves
 * it (docs/publishing.md, Channels), since a stored server or its DNS can change after the
 * connect. Throws `TargetRefused` when refused, before anything is sent.
 */
export const serviceFetch = (url: string | URL, init: RequestInit & { duplex?: 'half' }) =>
  guardedFetch(url, init, webhookSettings().allowPrivateTargets);
