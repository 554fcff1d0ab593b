import { NETWORK_LIMITS, type NetworkLimits } from '@chorus/validators';
import { z } from 'zod';
import { NetworkError } from '../../http';
import type { DiscoveredChannel, ProviderContext, ProviderCredentials } from '../../provider';
import { mastodonApi, type MastodonApi } from './api';

const ZAccount = z.object({
  id: z.string(),
  username: z.string(),
  display_name: z.string().nullish(),
  avatar: z.string().nullish(),
});

/** The parts of `GET /api/v2/instance` that are the instance's own limits (all optional). */
const ZInstance = z.object({
  domain: z.string().optional(),
  configuration: z
    .object({
      statuses: z
        .object({
          max_characters: z.number().int().positive(),
          max_media_attachments: z.number().int().positive(),
        })
        .partial(),
      media_attachments: z
        .object({
          image_size_limit: z.number().int().positive(),
          video_size_limit: z.number().int().positive(),
          supported_mime_types: z.array(z.string()),
        })
        .partial(),
    })
    .partial()
    .optional(),
});
type Instance = z.infer<typeof ZInstance>;

/** The instance's description; null where it has none (before Mastodon 4.0) or another shape. */
async function instanceOf(api: MastodonApi): Promise<Instance | null> {
  try {
    return ZInstance.safeParse(await api.get('/api/v2/instance')).data ?? null;
  } catch (error) {
    if (error instanceof NetworkError && error.details.status === 404) return null;
    throw error;
  }
}

/** An instance's own limits over Mastodon's defaults: its text length, attachments and sizes. */
export function instanceLimits(instance: Instance): Partial<NetworkLimits> {
  const defaults = NETWORK_LIMITS.mastodon;
  const statuses = instance.configuration?.statuses;
  const media = instance.configuration?.media_attachments;
  const supported = media?.supported_mime_types;
  return {
    maxLength: statuses?.max_characters ?? defaults.maxLength,
    maxMedia: statuses?.max_media_attachments ?? defaults.maxMedia,
    media: defaults.media
      .filter((rule) => !supported || supported.includes(rule.mimeType))
      .map((rule) => ({
        mimeType: rule.mimeType,
        maxBytes:
          (rule.mimeType.startsWith('video/')
            ? media?.video_size_limit
            : media?.image_size_limit) ?? rule.maxBytes,
      })),
  };
}

/** The one account a Mastodon token publishes as, with its instance's limits. */
export async function discoverMastodonChannels(
  credentials: ProviderCredentials,
  context: ProviderContext,
): Promise<DiscoveredChannel[]> {
  const api = mastodonApi(context, credentials.accessToken);
  const [account, instance] = await Promise.all([
    api.get('/api/v1/accounts/verify_credentials').then((body) => ZAccount.parse(body)),
    instanceOf(api),
  ]);
  // The instance's own domain (the one its handles and actor URIs carry, fixed for its life),
  // which may differ from the host serving its API; that host before Mastodon 4.0.
  const domain = (instance?.domain ?? new URL(api.base).hostname).toLowerCase();
  return [
    {
      // An account id is unique only on its instance (two may both have an account 1), so the
      // channel is the id at the domain (docs/publishing.md, Channels; migration 0028 rewrote
      // channels stored with the id alone, taking the domain from their handle).
      externalId: `${account.id}@${domain}`,
      name: account.display_name || account.username,
      handle: `@${account.username}@${domain}`,
      avatarUrl: account.avatar ?? null,
      kind: 'account',
      limits: instance ? instanceLimits(instance) : undefined,
    },
  ];
}
