import { z } from 'zod';
import { MEDIA_TYPES } from '../media';
import { LENGTH_RULES } from './length';

/** The networks Chorus publishes to, each a provider module behind one interface. */
export const NETWORKS = [
  'bluesky',
  'mastodon',
  'x',
  'linkedin',
  'facebook',
  'instagram',
  'threads',
] as const;
export const ZNetwork = z.enum(NETWORKS);
export type Network = z.infer<typeof ZNetwork>;

/** Each network as people call it: in refusals and on the dashboard. */
export const NETWORK_NAMES: Readonly<Record<Network, string>> = {
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  x: 'X',
  linkedin: 'LinkedIn',
  facebook: 'Facebook',
  instagram: 'Instagram',
  threads: 'Threads',
};

const MB = 1024 * 1024;

/**
 * What a network accepts in one post, as data: exposed on every channel (`limits`), enforced
 * by the server in one place (`targetIssues`) and counted live by the composer.
 */
export const ZNetworkLimits = z
  .object({
    maxLength: z.number().int().meta({ description: 'The longest text, counted by `lengthRule`.' }),
    lengthRule: z.enum(LENGTH_RULES).meta({
      description:
        '`graphemes` (user-perceived characters), `x-weighted` (X: URLs 23, CJK and emoji 2), `mastodon` (graphemes, URLs 23, remote mentions without their domain), `threads` (characters, emoji as their UTF-8 bytes), `characters` (code points).',
    }),
    maxMedia: z.number().int().meta({ description: 'The most attachments on one post.' }),
    media: z
      .array(z.object({ mimeType: z.enum(MEDIA_TYPES), maxBytes: z.number().int() }))
      .meta({ description: 'The attachment types accepted, each with its largest size.' }),
    videoAlone: z.boolean().meta({ description: 'A video must be the only attachment.' }),
    requiresMedia: z.boolean().meta({ description: 'A post needs at least one attachment.' }),
    maxThreadParts: z.number().int().meta({
      description:
        'The most posts in a thread, the first included; 1 when the network has no threads.',
    }),
    firstComment: z.boolean().meta({ description: 'Whether a first comment can be posted.' }),
  })
  .meta({ id: 'NetworkLimits' });
export type NetworkLimits = z.infer<typeof ZNetworkLimits>;

type ImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
const ALL_IMAGES: readonly ImageType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const images = (maxBytes: number, types: readonly ImageType[] = ALL_IMAGES) =>
  types.map((mimeType) => ({ mimeType, maxBytes }));

/**
 * Each network's rules, from its own documentation (docs/publishing.md cites them). A channel
 * may narrow or widen them where its network says so (a Mastodon instance's own limits).
 */
export const NETWORK_LIMITS: Readonly<Record<Network, NetworkLimits>> = {
  // app.bsky.feed.post (300 graphemes), app.bsky.embed.images (4, 2,000,000 bytes each since
  // April 2026), app.bsky.embed.video (one video/mp4, 300,000,000 bytes since August 2026).
  bluesky: {
    maxLength: 300,
    lengthRule: 'graphemes',
    maxMedia: 4,
    media: [
      ...images(2_000_000, ['image/jpeg', 'image/png', 'image/webp']),
      { mimeType: 'video/mp4', maxBytes: 300_000_000 },
    ],
    videoAlone: true,
    requiresMedia: false,
    maxThreadParts: 25,
    firstComment: true,
  },
  mastodon: {
    maxLength: 500,
    lengthRule: 'mastodon',
    maxMedia: 4,
    media: [...images(16 * MB), { mimeType: 'video/mp4', maxBytes: 99 * MB }],
    videoAlone: true,
    requiresMedia: false,
    maxThreadParts: 25,
    firstComment: true,
  },
  x: {
    maxLength: 280,
    lengthRule: 'x-weighted',
    maxMedia: 4,
    media: [
      ...images(5 * MB, ['image/jpeg', 'image/png', 'image/webp']),
      { mimeType: 'image/gif', maxBytes: 15 * MB },
      { mimeType: 'video/mp4', maxBytes: 512 * MB },
    ],
    videoAlone: true,
    requiresMedia: false,
    maxThreadParts: 25,
    firstComment: true,
  },
  // Posts API (`commentary`, 3,000 characters), MultiImage API (2 to 20 images), Images API
  // (JPG, GIF, PNG; a pixel limit, no byte limit stated), Videos API (MP4 up to 500 MB, alone),
  // Documents API (PDF up to 100 MB). No threads; comments via socialActions.
  linkedin: {
    maxLength: 3000,
    lengthRule: 'characters',
    maxMedia: 20,
    media: [
      ...images(10 * MB, ['image/jpeg', 'image/png', 'image/gif']),
      { mimeType: 'video/mp4', maxBytes: 500 * MB },
      { mimeType: 'application/pdf', maxBytes: 100 * MB },
    ],
    videoAlone: true,
    requiresMedia: false,
    maxThreadParts: 1,
    firstComment: true,
  },
  facebook: {
    maxLength: 63_206,
    lengthRule: 'characters',
    maxMedia: 10,
    // Graph's own words (error 1366046): photos under 4 MB, JPG, PNG, GIF, TIFF, HEIF or WebP.
    media: [...images(4 * MB), { mimeType: 'video/mp4', maxBytes: 1024 * MB }],
    videoAlone: true,
    requiresMedia: false,
    maxThreadParts: 1,
    firstComment: true,
  },
  instagram: {
    maxLength: 2200,
    lengthRule: 'characters',
    maxMedia: 10,
    media: [...images(8 * MB, ['image/jpeg']), { mimeType: 'video/mp4', maxBytes: 300 * MB }],
    videoAlone: false,
    requiresMedia: true,
    maxThreadParts: 1,
    firstComment: true,
  },
  threads: {
    maxLength: 500,
    lengthRule: 'threads',
    maxMedia: 20,
    media: [
      ...images(8 * MB, ['image/jpeg', 'image/png']),
      { mimeType: 'video/mp4', maxBytes: 1024 * MB },
    ],
    videoAlone: false,
    requiresMedia: false,
    maxThreadParts: 25,
    firstComment: true,
  },
};
