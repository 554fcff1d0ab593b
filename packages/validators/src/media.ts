import { z } from 'zod';
import { paginationQuery, ZTimestamp } from './common';
import { ZEnvelope, ZListEnvelope } from './envelope';

/** The file types accepted, detected from the bytes (docs/media.md). */
export const MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'application/pdf',
] as const;

export const ZAltText = z.string().max(1000).meta({
  description: 'Text describing the media, for screen readers (up to 1,000 characters).',
  example: 'A red bicycle against a blue wall.',
});

export const ZMedia = z
  .object({
    id: z.string().meta({ example: 'med_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    filename: z.string().meta({ example: 'launch.png' }),
    mimeType: z.enum(MEDIA_TYPES).meta({ description: 'Detected from the bytes, not the name.' }),
    size: z.number().int().meta({ description: 'Bytes.', example: 48213 }),
    width: z.number().int().nullable().meta({ description: 'Pixels; null for video and PDF.' }),
    height: z.number().int().nullable().meta({ description: 'Pixels; null for video and PDF.' }),
    sha256: z.string().meta({ description: 'Hex SHA-256 of the bytes.' }),
    altText: ZAltText.nullable(),
    url: z.url().meta({
      description:
        'Where the bytes are served, to callers of the same account (a bearer token, or the dashboard session).',
      example:
        'https://chorus.example.com/api/content/media/med_01JD2Y8Q9Z3M4N5P6R7S8T9V0W/content',
    }),
    uploadedBy: z.string().nullable().meta({ description: 'The uploader; null once deleted.' }),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'Media' });

export type Media = z.infer<typeof ZMedia>;

export const ZMediaIdParam = z.object({ id: z.string() });

export const ZListMediaQuery = paginationQuery(25);

export const ZUpdateMedia = z.object({
  id: z.string(),
  altText: ZAltText.nullable()
    .optional()
    .meta({ description: 'New alt text; null clears it. Left out: kept.' }),
});

export const ZMediaResponse = ZEnvelope(ZMedia, 'MediaResponse');
export const ZMediaList = ZListEnvelope(ZMedia, 'MediaList');
