import { MEDIA_TYPES } from '@chorus/validators';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../media/config';

const mediaRef = { $ref: '#/components/schemas/MediaResponse' };
// `format: binary` beside `contentMediaType`: client generators (orval, openapi-generator)
// read the former to type a file as a Blob rather than a string.
const binary = {
  type: 'string' as const,
  format: 'binary',
  contentMediaType: 'application/octet-stream',
};
const idParameter = {
  name: 'id',
  in: 'path' as const,
  required: true,
  schema: { type: 'string' as const },
  example: 'med_01JD2Y8Q9Z3M4N5P6R7S8T9V0W',
};

/**
 * The OpenAPI operations of the media handler routes, which no procedure describes. The
 * document adds what every route shares (security, errors, headers) as for the others.
 */
export const mediaPaths: ZodOpenApiPathsObject = {
  '/api/content/media': {
    post: {
      operationId: 'uploadMedia',
      summary: 'Upload media',
      tags: ['Media'],
      description: `A \`multipart/form-data\` body with one \`file\` part and an optional \`altText\` field. The bytes stream to storage as they arrive. The type is detected from the file's bytes, never from its name or the part's \`Content-Type\`: ${MEDIA_TYPES.join(', ')} are accepted, anything else is 415 \`unsupported_media_type\`. Over the size limit (\`CHORUS_MEDIA_MAX_BYTES\`, ${DEFAULT_MAX_UPLOAD_BYTES} bytes by default) the answer is 413 \`payload_too_large\` and nothing is kept. Images get their \`width\` and \`height\`; one declaring no pixels or more than 65,535 on a side is 400 \`validation_error\` on \`file\`.\n\nWith an \`Idempotency-Key\`, a retry that uploads the same file (same name, alt text and bytes) gets the first answer back; its bytes are not kept twice.`,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { ...binary, description: 'The file; its name becomes `filename`.' },
                altText: { type: 'string', maxLength: 1000, description: 'Alt text.' },
              },
            },
            encoding: { file: { contentType: MEDIA_TYPES.join(', ') } },
          },
        },
      },
      responses: {
        200: {
          description: 'Created',
          content: {
            'application/json': {
              schema: mediaRef,
              example: {
                success: true,
                data: {
                  id: 'med_01JD2Y8Q9Z3M4N5P6R7S8T9V0W',
                  filename: 'launch.png',
                  mimeType: 'image/png',
                  size: 48213,
                  width: 1200,
                  height: 630,
                  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
                  altText: 'The launch banner',
                  url: 'https://chorus.example.com/api/content/media/med_01JD2Y8Q9Z3M4N5P6R7S8T9V0W/content',
                  uploadedBy: 'usr_01JD2Y8Q9Z3M4N5P6R7S8T9V0A',
                  createdAt: '2026-11-21T10:00:00.000Z',
                },
              },
            },
          },
        },
      },
    },
  },
  '/api/content/media/{id}/content': {
    get: {
      operationId: 'getMediaContent',
      summary: 'The bytes of a media item',
      tags: ['Media'],
      description:
        "The file as uploaded, with the `Content-Type` detected at upload, `X-Content-Type-Options: nosniff`, and the SHA-256 as a strong `ETag` (send `If-None-Match` to get 304). One byte range may be asked for with `Range` (`bytes=0-1023`, `bytes=1024-`, `bytes=-500`): 206 with `Content-Range`, or 416 `range_not_satisfiable` when it starts past the end; `If-Range` with the current ETag keeps the range, any other value gets the whole file. Several ranges, or another unit, get the whole file. Another account's id is 404. Besides a bearer token, the dashboard's session cookie is accepted from the dashboard's own pages, so that `<img src>` works there.",
      parameters: [idParameter],
      responses: {
        200: {
          description: 'The bytes',
          content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: binary }])),
        },
      },
    },
  },
  '/api/content/media/{id}/shared': {
    get: {
      operationId: 'getSharedMediaContent',
      summary: 'The bytes of a media item, through a signed link',
      tags: ['Media'],
      description:
        'The same bytes and headers as `…/content`, without a credential: the `expires` (Unix seconds) and `signature` query parameters authorise the request. Chorus makes these links for networks that fetch media by URL (Instagram, Threads) when it publishes; each expires within an hour. An expired or altered link is 404 `resource_not_found`, like a deleted file: the answer never tells whether a file exists.',
      parameters: [
        idParameter,
        {
          name: 'expires',
          in: 'query',
          required: true,
          description: 'When the link stops working, in Unix seconds (an hour at most ahead).',
          schema: { type: 'integer' },
        },
        {
          name: 'signature',
          in: 'query',
          required: true,
          description: 'The HMAC Chorus signed the link with; any change refuses it.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: {
          description: 'The bytes',
          content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: binary }])),
        },
      },
    },
  },
};

/** Answers that the shared description of a route does not produce. */
export const mediaExtraResponses: Record<string, Record<string, object>> = {
  'GET /api/content/media/{id}/content': {
    304: { description: 'Not modified: the `If-None-Match` ETag is current.' },
    206: {
      description: 'The range asked for, with `Content-Range: bytes first-last/size`.',
      content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: binary }])),
    },
  },
  'GET /api/content/media/{id}/shared': {
    304: { description: 'Not modified: the `If-None-Match` ETag is current.' },
  },
};
