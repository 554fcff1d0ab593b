import { z } from 'zod';
import { paginationQuery, ZTimestamp } from '../common';
import { ZListEnvelope } from '../envelope';
import { ZNetwork, ZNetworkLimits } from './networks';

export const CHANNEL_KINDS = ['profile', 'page', 'organization', 'account'] as const;

/** A place on a connected network a post goes to (docs/publishing.md). */
export const ZChannel = z
  .object({
    id: z.string().meta({ example: 'chn_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    integrationId: ZNetwork.meta({ example: 'bluesky' }),
    name: z.string().meta({ example: 'Acme' }),
    handle: z.string().meta({ example: '@acme.bsky.social' }),
    avatarUrl: z.string().nullable().meta({
      description:
        "The channel's picture at the network: an absolute http(s) URL, or null (a link of another kind is not kept).",
    }),
    kind: z.enum(CHANNEL_KINDS).meta({
      description:
        '`profile` (a person), `page` (a Facebook Page), `organization` (a LinkedIn organisation), `account` (any other single account).',
    }),
    limits: ZNetworkLimits.meta({
      description:
        "The network's limits with this channel's own over them (a Mastodon instance's).",
    }),
    connectionStatus: z.enum(['connected', 'needs_reconnect']).meta({
      description:
        '`needs_reconnect` once the network revoked the grant: connect the integration again.',
    }),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'Channel' });
export type Channel = z.infer<typeof ZChannel>;

export const ZListChannelsQuery = paginationQuery(25).extend({
  integrationId: ZNetwork.meta({ description: "Only this network's channels." }).optional(),
});
export type ListChannelsQuery = z.infer<typeof ZListChannelsQuery>;

export const ZChannelList = ZListEnvelope(ZChannel, 'ChannelList');
