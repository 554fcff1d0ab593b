import { MEDIA_TYPES, type Media } from '@chorus/validators';

type MediaType = Media['mimeType'];

/** How each accepted type is named on the page; a Record, so a new type must be named here. */
const NAMES: Record<MediaType, { format: string; kind: 'image' | 'video' | 'pdf' }> = {
  'image/jpeg': { format: 'JPEG', kind: 'image' },
  'image/png': { format: 'PNG', kind: 'image' },
  'image/gif': { format: 'GIF', kind: 'image' },
  'image/webp': { format: 'WebP', kind: 'image' },
  'video/mp4': { format: 'MP4', kind: 'video' },
  'application/pdf': { format: 'PDF', kind: 'pdf' },
};

export const kindOf = (type: MediaType) => NAMES[type].kind;

/** "PNG image", "MP4 video", "PDF document". */
export function typeLabel(type: MediaType): string {
  const { format, kind } = NAMES[type];
  return `${format} ${kind === 'pdf' ? 'document' : kind}`;
}

/** The file picker's filter: a hint to the browser only, the server detects the type. */
export const ACCEPT = MEDIA_TYPES.join(',');

/** "JPEG, PNG, GIF, WebP, MP4 or PDF". */
export const ACCEPTED_FORMATS = (() => {
  const formats = MEDIA_TYPES.map((type) => NAMES[type].format);
  return `${formats.slice(0, -1).join(', ')} or ${formats.at(-1)}`;
})();

/**
 * Where the page loads an item's bytes: the path of the record's `url`, so that the browser
 * asks its own origin and sends the session cookie (the bytes route accepts it only from
 * our own pages), whatever public origin the record names.
 */
export const bytesPath = (media: Pick<Media, 'url'>) => new URL(media.url).pathname;
