import { createHash } from 'node:crypto';
import type { Answer } from './faults';
import {
  error,
  IMAGE_TYPES,
  isAccount,
  MAX_DESCRIPTION,
  notFound,
  userWith,
  VIDEO_TYPES,
  type ApiContext,
  type MastodonLimits,
} from './mastodon-api';
import { nextId, type MastodonMedia, type MastodonWorld } from './mastodon-world';
import { fileParam, stringParam } from './params';
import type { RouteEntry } from './routes';

/**
 * Mastodon's media v2: `POST /api/v2/media` answers 200 for an image (processed at once since
 * 4.0) and 202 for video and GIFs (to gifv), whose `GET /api/v1/media/:id` answers 206 with no
 * `url` until processed.
 */

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export function mastodonMediaRoutes(
  world: MastodonWorld,
  limits: MastodonLimits,
): RouteEntry<ApiContext>[] {
  const uploadMedia = async ({ grant, params }: ApiContext): Promise<Answer> => {
    const account = userWith(world, grant, 'write:media');
    if (!isAccount(account)) return account;
    const file = fileParam(params, 'file');
    if (!file) return error(400, 'param is missing or the value is empty: file');
    const isImage = IMAGE_TYPES.includes(file.type);
    if (!isImage && !VIDEO_TYPES.includes(file.type)) {
      return error(422, 'Validation failed: File content type is invalid, File is invalid');
    }
    const limit = isImage ? limits.imageSizeLimit : limits.videoSizeLimit;
    if (file.size > limit) {
      return error(422, `Validation failed: File file size must be less than ${megabytes(limit)}`);
    }
    const description = stringParam(params, 'description') ?? null;
    if (description && description.length > MAX_DESCRIPTION) {
      return error(
        422,
        `Validation failed: Description is too long (maximum is ${MAX_DESCRIPTION} characters)`,
      );
    }
    const type = file.type === 'image/gif' ? 'gifv' : isImage ? 'image' : 'video';
    const bytes = new Uint8Array(await file.arrayBuffer());
    const media: MastodonMedia = {
      id: nextId(),
      accountId: account.id,
      type,
      mimeType: file.type,
      size: file.size,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      description,
      // Since Mastodon 4.0 images are processed at once; video and GIFs (to gifv) later.
      pollsLeft: type === 'image' ? 0 : limits.processingPolls,
      statusId: null,
    };
    world.media.set(media.id, media);
    return { status: type === 'image' ? 200 : 202, body: world.mediaJson(media) };
  };

  const getMedia = ({ grant }: ApiContext, match: RegExpExecArray): Answer => {
    const account = userWith(world, grant, 'write:media');
    if (!isAccount(account)) return account;
    const media = world.media.get(match[1] ?? '');
    if (!media || media.accountId !== account.id) return notFound();
    if (media.pollsLeft <= 0) return { status: 200, body: world.mediaJson(media) };
    media.pollsLeft--;
    return { status: 206, body: world.mediaJson(media, false) };
  };

  return [
    ['POST', /^\/api\/v2\/media$/, uploadMedia],
    ['GET', /^\/api\/v1\/media\/([^/]+)$/, getMedia],
  ];
}
