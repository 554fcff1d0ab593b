import type { IncomingMessage } from 'node:http';
import type { Answer } from './faults';
import {
  nextId,
  scopeCovers,
  statusLength,
  type MastodonAccount,
  type MastodonGrant,
  type MastodonWorld,
} from './mastodon-world';
import { stringParam, type Params } from './params';
import type { RouteEntry } from './routes';

/** Mastodon's REST API for what Chorus uses: statuses, the account, the instance (media: mastodon-media.ts). */

export interface MastodonLimits {
  domain: string;
  maxCharacters: number;
  maxMediaAttachments: number;
  imageSizeLimit: number;
  videoSizeLimit: number;
  /** Status checks a video or GIF stays in processing (206) after its upload. */
  processingPolls: number;
}

export interface ApiContext {
  req: IncomingMessage;
  params: Params;
  query: URLSearchParams;
  grant: MastodonGrant | undefined;
}

export const IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/heic',
  'image/avif',
];
export const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime'];
const IDEMPOTENCY_MS = 60 * 60 * 1000;
export const MAX_DESCRIPTION = 1500;
/** `GET /api/v1/statuses` reads at most this many `id[]`. */
const MAX_STATUS_IDS = 20;

export const error = (status: number, message: string): Answer => ({
  status,
  body: { error: message },
});
export const notFound = () => error(404, 'Record not found');

/** The signed-in account with the scope the method needs, or Mastodon's refusal. */
export function userWith(world: MastodonWorld, grant: MastodonGrant | undefined, scope: string) {
  if (!grant) return error(401, 'The access token is invalid');
  if (!scopeCovers(grant.scopes, scope))
    return error(403, 'This action is outside the authorized scopes');
  const account = grant.accountId ? world.accounts.get(grant.accountId) : undefined;
  return account ?? error(422, 'This method requires an authenticated user');
}

export const isAccount = (value: MastodonAccount | Answer): value is MastodonAccount =>
  'username' in value;

export function mastodonApiRoutes(
  world: MastodonWorld,
  limits: MastodonLimits,
): RouteEntry<ApiContext>[] {
  /** Mastodon's PostStatusService, in its order: thread, idempotency, media, text. */
  const postStatus = ({ grant, params, req }: ApiContext): Answer => {
    const account = userWith(world, grant, 'write:statuses');
    if (!isAccount(account)) return account;
    const inReplyToId = stringParam(params, 'in_reply_to_id') ?? null;
    const parent = inReplyToId ? world.statuses.get(inReplyToId) : undefined;
    if (inReplyToId && !parent) {
      return error(404, 'The post you are trying to reply to does not appear to exist.');
    }
    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' && key !== '' ? key : null;
    const remembered = idempotencyKey
      ? world.idempotency.get(`${account.id}:${idempotencyKey}`)
      : undefined;
    const duplicate =
      remembered && Date.now() - remembered.at < IDEMPOTENCY_MS
        ? world.statuses.get(remembered.statusId)
        : undefined;
    if (duplicate) return { status: 200, body: world.statusJson(duplicate) };

    const mediaIds = (Array.isArray(params.media_ids) ? params.media_ids : []).map(String);
    if (mediaIds.length > limits.maxMediaAttachments) {
      return error(422, `Cannot attach more than ${limits.maxMediaAttachments} files`);
    }
    const media = mediaIds.map((id) => world.media.get(id));
    const missing = mediaIds.filter(
      (id, index) => media[index]?.accountId !== account.id || media[index]?.statusId !== null,
    );
    if (missing.length > 0) {
      return error(
        422,
        `Media ${missing.join(', ')} not found or already attached to another post`,
      );
    }
    const attached = media.flatMap((item) => (item ? [item] : []));
    if (attached.length > 1 && attached.some((item) => item.type === 'video')) {
      return error(422, 'Cannot attach a video to a post that already contains images');
    }
    if (attached.some((item) => item.pollsLeft > 0)) {
      return error(
        422,
        'Cannot attach files that have not finished processing. Try again in a moment!',
      );
    }
    const text = stringParam(params, 'status') ?? '';
    if (text.trim() === '' && attached.length === 0) {
      return error(422, "Validation failed: Text can't be blank");
    }
    if (statusLength(text) > limits.maxCharacters) {
      return error(
        422,
        `Validation failed: Text character limit of ${limits.maxCharacters} exceeded`,
      );
    }
    const status = {
      id: nextId(),
      accountId: account.id,
      text,
      inReplyToId,
      mediaIds,
      idempotencyKey,
      visibility: stringParam(params, 'visibility') ?? 'public',
      favourites: 0,
      reblogs: 0,
      replies: 0,
      createdAt: new Date(),
    };
    world.statuses.set(status.id, status);
    account.statusesCount++;
    for (const item of attached) item.statusId = status.id;
    if (parent) parent.replies++;
    if (idempotencyKey) {
      world.idempotency.set(`${account.id}:${idempotencyKey}`, {
        statusId: status.id,
        at: Date.now(),
      });
    }
    return { status: 200, body: world.statusJson(status) };
  };

  const getStatus = (_ctx: ApiContext, match: RegExpExecArray): Answer => {
    const status = world.statuses.get(match[1] ?? '');
    return status ? { status: 200, body: world.statusJson(status) } : notFound();
  };

  const getStatuses = ({ query }: ApiContext): Answer => ({
    status: 200,
    body: query
      .getAll('id[]')
      .slice(0, MAX_STATUS_IDS)
      .flatMap((id) => {
        const status = world.statuses.get(id);
        return status ? [world.statusJson(status)] : [];
      }),
  });

  const verifyCredentials = ({ grant }: ApiContext): Answer => {
    const account = userWith(world, grant, 'read:accounts');
    if (!isAccount(account)) return account;
    return {
      status: 200,
      body: {
        ...world.accountJson(account),
        source: { privacy: 'public', sensitive: false, language: '', note: '', fields: [] },
      },
    };
  };

  const instance = (): Answer => ({
    status: 200,
    body: {
      domain: limits.domain,
      title: 'Mastodon stand-in',
      version: '4.4.0',
      source_url: 'https://github.com/mastodon/mastodon',
      description: 'A loopback stand-in of a Mastodon server.',
      languages: ['en'],
      configuration: {
        urls: { streaming: world.baseUrl.replace(/^http/, 'ws') },
        statuses: {
          max_characters: limits.maxCharacters,
          max_media_attachments: limits.maxMediaAttachments,
          characters_reserved_per_url: 23,
        },
        media_attachments: {
          description_limit: MAX_DESCRIPTION,
          image_matrix_limit: 33_177_600,
          image_size_limit: limits.imageSizeLimit,
          supported_mime_types: [...IMAGE_TYPES, ...VIDEO_TYPES],
          video_frame_rate_limit: 120,
          video_matrix_limit: 8_294_400,
          video_size_limit: limits.videoSizeLimit,
        },
        polls: {
          max_options: 4,
          max_characters_per_option: 50,
          min_expiration: 300,
          max_expiration: 2_629_746,
        },
      },
      registrations: { enabled: false, approval_required: false, message: null },
    },
  });

  return [
    ['POST', /^\/api\/v1\/statuses$/, postStatus],
    ['GET', /^\/api\/v1\/statuses\/([^/]+)$/, getStatus],
    ['GET', /^\/api\/v1\/statuses$/, getStatuses],
    ['GET', /^\/api\/v1\/accounts\/verify_credentials$/, verifyCredentials],
    ['GET', /^\/api\/v2\/instance$/, instance],
  ];
}
