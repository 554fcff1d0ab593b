import { createHash } from 'node:crypto';
import type { Answer } from './faults';
import { fileParam, stringParam } from './params';
import type { RouteEntry } from './routes';
import type { XContext } from './x-api';
import { invalidRequest, mediaKey, nextXId, type XMedia, type XUser, type XWorld } from './x-world';

/**
 * X API v2 media upload (docs.x.com/x-api/media): the chunked flow on its own endpoints
 * (`/2/media/upload/initialize`, `/{id}/append`, `/{id}/finalize`, `GET /2/media/upload?command=STATUS`),
 * the same flow as `command=INIT|APPEND|FINALIZE` on `POST /2/media/upload`, the one-request
 * upload of images, and alt text through `POST /2/media/metadata`.
 */

const MB = 1024 * 1024;
/** Size limits per use case: image 5 MB, GIF 15 MB, video 512 MB. */
const CATEGORY_LIMITS: Record<string, number> = {
  tweet_image: 5 * MB,
  tweet_gif: 15 * MB,
  tweet_video: 512 * MB,
  amplify_video: 512 * MB,
};
const IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/bmp',
  'image/pjpeg',
  'image/tiff',
];
const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'video/mp2t'];
const CATEGORY_TYPES: Record<string, string[]> = {
  tweet_image: IMAGE_TYPES,
  tweet_gif: ['image/gif'],
  tweet_video: VIDEO_TYPES,
  amplify_video: VIDEO_TYPES,
};
const MAX_SEGMENT = 5 * MB;
const MAX_ALT_TEXT = 1000;
const EXPIRES_AFTER_SECS = 86_400;

const defaultCategory = (type: string) =>
  type === 'image/gif' ? 'tweet_gif' : type.startsWith('video/') ? 'tweet_video' : 'tweet_image';

/** The bytes of a `media` field: a file part, or base64 text. */
async function bytesOf(value: unknown): Promise<Buffer | undefined> {
  if (value instanceof File) return Buffer.from(await value.arrayBuffer());
  return typeof value === 'string' ? Buffer.from(value, 'base64') : undefined;
}

export interface XMediaOptions {
  /** STATUS answers `in_progress` this many times before `succeeded` (video and GIF). */
  processingPolls: number;
  checkAfterSecs: number;
  /** Processing of every video and GIF ends `failed` with this message. */
  processingError?: string;
}

export function xMediaRoutes(
  world: XWorld,
  options: XMediaOptions,
  userWith: (ctx: XContext, scope: string) => XUser | Answer,
): RouteEntry<XContext>[] {
  const isUser = (value: XUser | Answer): value is XUser => 'username' in value;
  const owned = (user: XUser, id: string | undefined) => {
    const media = world.media.get(id ?? '');
    return media?.userId === user.id ? media : undefined;
  };
  const described = (media: XMedia) => ({
    id: media.id,
    media_key: mediaKey(media),
    size: media.size,
    expires_after_secs: EXPIRES_AFTER_SECS,
  });

  function initialize(user: XUser, params: XContext['params']): Answer {
    const mediaType = stringParam(params, 'media_type') ?? '';
    const category = stringParam(params, 'media_category') ?? defaultCategory(mediaType);
    const totalBytes = Number(params.total_bytes);
    if (!CATEGORY_TYPES[category]?.includes(mediaType)) {
      return invalidRequest(
        `media_type ${mediaType} is not supported for media_category ${category}.`,
      );
    }
    if (!Number.isInteger(totalBytes) || totalBytes <= 0) {
      return invalidRequest('total_bytes must be a positive integer.');
    }
    if (totalBytes > (CATEGORY_LIMITS[category] ?? 0)) {
      return invalidRequest(`File size exceeds ${CATEGORY_LIMITS[category]} bytes.`);
    }
    const media: XMedia = {
      id: nextXId(),
      userId: user.id,
      mediaType,
      category,
      totalBytes,
      segments: new Map(),
      finalized: false,
      size: 0,
      sha256: null,
      pollsLeft: 0,
      altText: null,
      tweetId: null,
    };
    world.media.set(media.id, media);
    return {
      status: 200,
      body: {
        data: { id: media.id, media_key: mediaKey(media), expires_after_secs: EXPIRES_AFTER_SECS },
      },
    };
  }

  async function append(
    user: XUser,
    id: string | undefined,
    params: XContext['params'],
  ): Promise<Answer> {
    const media = owned(user, id);
    if (!media || media.finalized)
      return invalidRequest('The media_id is invalid or already finalized.');
    const index = Number(params.segment_index);
    const bytes = await bytesOf(params.media ?? params.media_data);
    if (!Number.isInteger(index) || index < 0 || index > 999) {
      return invalidRequest('segment_index must be between 0 and 999.');
    }
    if (!bytes) return invalidRequest('media is required.');
    if (bytes.length > MAX_SEGMENT) return invalidRequest('A segment must be at most 5 MB.');
    media.segments.set(index, bytes);
    return {
      status: 200,
      body: { data: { expires_at: Math.floor(Date.now() / 1000) + EXPIRES_AFTER_SECS } },
    };
  }

  function finalize(user: XUser, id: string | undefined): Answer {
    const media = owned(user, id);
    if (!media || media.finalized)
      return invalidRequest('The media_id is invalid or already finalized.');
    const ordered = [...media.segments].sort(([a], [b]) => a - b).map(([, bytes]) => bytes);
    const bytes = Buffer.concat(ordered);
    if (bytes.length !== media.totalBytes) {
      return invalidRequest('Segments do not add up to provided total file size.');
    }
    media.segments.clear();
    media.finalized = true;
    media.size = bytes.length;
    media.sha256 = createHash('sha256').update(bytes).digest('hex');
    const processed = media.category === 'tweet_image';
    media.pollsLeft = processed ? -1 : options.processingPolls;
    return {
      status: 200,
      body: {
        data: {
          ...described(media),
          ...(!processed && {
            processing_info: { state: 'pending', check_after_secs: options.checkAfterSecs },
          }),
        },
      },
    };
  }

  function status(user: XUser, id: string | null): Answer {
    const media = owned(user, id ?? undefined);
    if (!media || !media.finalized) return invalidRequest('The media_id is invalid.');
    if (media.category === 'tweet_image') return { status: 200, body: { data: described(media) } };
    const processing = media.pollsLeft > 0;
    // Processed media (pollsLeft -1) can be posted; media that failed never can.
    if (processing) media.pollsLeft--;
    else if (!options.processingError) media.pollsLeft = -1;
    const processingInfo = processing
      ? { state: 'in_progress', check_after_secs: options.checkAfterSecs, progress_percent: 50 }
      : options.processingError
        ? {
            state: 'failed',
            progress_percent: 100,
            error: { code: 1, name: 'InvalidMedia', message: options.processingError },
          }
        : { state: 'succeeded', progress_percent: 100 };
    return {
      status: 200,
      body: { data: { ...described(media), processing_info: processingInfo } },
    };
  }

  /** The one-request upload (images), or the command form of the chunked flow. */
  async function upload(user: XUser, params: XContext['params']): Promise<Answer> {
    const command = stringParam(params, 'command');
    const id = stringParam(params, 'media_id');
    if (command === 'INIT') return initialize(user, params);
    if (command === 'APPEND') return append(user, id, params);
    if (command === 'FINALIZE') return finalize(user, id);
    const file = fileParam(params, 'media');
    const bytes = await bytesOf(params.media);
    const mediaType = stringParam(params, 'media_type') ?? file?.type ?? '';
    const category = stringParam(params, 'media_category');
    if (!bytes || category !== 'tweet_image') {
      return invalidRequest('media and media_category (tweet_image) are required.');
    }
    const init = initialize(user, {
      media_type: mediaType,
      media_category: category,
      total_bytes: bytes.length,
    });
    if (init.status !== 200) return init;
    const created = (init.body as { data: { id: string } }).data.id;
    await append(user, created, { segment_index: 0, media: bytes.toString('base64') });
    return finalize(user, created);
  }

  const authed =
    (handler: (user: XUser, ctx: XContext, match: RegExpExecArray) => Answer | Promise<Answer>) =>
    (ctx: XContext, match: RegExpExecArray) => {
      const user = userWith(ctx, 'media.write');
      return isUser(user) ? handler(user, ctx, match) : user;
    };

  const metadata = authed((user, { params }) => {
    const media = owned(user, stringParam(params, 'id'));
    if (!media) return invalidRequest('The media id is invalid.');
    const alt = (params.metadata as { alt_text?: { text?: unknown } } | undefined)?.alt_text?.text;
    if (alt !== undefined && (typeof alt !== 'string' || alt.length > MAX_ALT_TEXT)) {
      return invalidRequest(
        `alt_text.text must be a string of at most ${MAX_ALT_TEXT} characters.`,
      );
    }
    if (typeof alt === 'string') media.altText = alt;
    return {
      status: 200,
      body: { data: { id: media.id, associated_metadata: { alt_text: { text: media.altText } } } },
    };
  });

  return [
    [
      'POST',
      /^\/2\/media\/upload\/initialize$/,
      authed((user, { params }) => initialize(user, params)),
    ],
    [
      'POST',
      /^\/2\/media\/upload\/(\d+)\/append$/,
      authed((user, { params }, m) => append(user, m[1], params)),
    ],
    [
      'POST',
      /^\/2\/media\/upload\/(\d+)\/finalize$/,
      authed((user, _ctx, m) => finalize(user, m[1])),
    ],
    [
      'GET',
      /^\/2\/media\/upload$/,
      authed((user, { query }) =>
        query.get('command') === 'STATUS'
          ? status(user, query.get('media_id'))
          : invalidRequest('command must be STATUS.'),
      ),
    ],
    ['POST', /^\/2\/media\/upload$/, authed((user, { params }) => upload(user, params))],
    ['POST', /^\/2\/media\/metadata$/, metadata],
  ];
}
