import type { MastodonStandIn } from '@chorus/stand-ins';
import { expect } from 'vitest';
import type { Harness } from './harness';

/** Connects the account (the main one without `token`) to a Mastodon stand-in by its token. */
export async function connectMastodonTo(h: Harness, instance: MastodonStandIn, token?: string) {
  const connected = await h.call('POST', '/api/integrations/connect/mastodon', {
    body: { apiKey: instance.token, serviceUrl: instance.url },
    token,
  });
  expect(connected.status).toBe(201);
}

export async function disconnectFrom(h: Harness, integrationId: string, token?: string) {
  const gone = await h.call('DELETE', `/api/integrations/disconnect/${integrationId}`, { token });
  expect(gone.status).toBe(200);
}

/** The ids of the account's channels on one integration, as the API lists them. */
export const channelIdsOn = async (h: Harness, integrationId: string, token?: string) =>
  (
    await h.call('GET', `/api/content/channels?integrationId=${integrationId}`, { token })
  ).json.data.map((c: { id: string }) => c.id) as string[];
