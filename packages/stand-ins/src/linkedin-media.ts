import { createHash } from 'node:crypto';
import type { Answer } from './faults';
import {
  liError,
  memberWith,
  objectField,
  unprocessable,
  type LinkedInContext,
} from './linkedin-errors';
import type { MediaKind } from './linkedin-world';
import type { RouteEntry } from './routes';

/**
 * LinkedIn's Images, Videos and Documents APIs: `initializeUpload` answers upload URLs, the
 * bytes are PUT to them (a video in parts of 4 MiB, each answering an ETag), a video is then
 * `finalizeUpload`ed with the parts' ETags and processed; `GET` tells the asset's status.
 */

export interface LinkedInMediaLimits {
  /** The size of a video part (LinkedIn: 4,194,304 bytes). */
  videoPartBytes: number;
  /** Status reads a video stays PROCESSING after finalizeUpload. */
  videoProcessingPolls: number;
  maxVideoBytes: number;
}

const KINDS: Record<string, MediaKind> = {
  images: 'image',
  videos: 'video',
  documents: 'document',
};
/** JPEG, PNG and GIF, the Images API's formats, by their first bytes. */
const IMAGE_MAGIC = [
  [0xff, 0xd8, 0xff],
  [0x89, 0x50, 0x4e, 0x47],
  [0x47, 0x49, 0x46],
];
const isImage = (bytes: Buffer) =>
  IMAGE_MAGIC.some((magic) => magic.every((b, i) => bytes[i] === b));

/** The member may write as `owner` (a person: themself; an organisation: as its poster). */
function ownerCheck(ctx: LinkedInContext, owner: unknown, resource: string): Answer | undefined {
  if (typeof owner !== 'string')
    return unprocessable(
      '/initializeUploadRequest/owner',
      'field is required but not found and has no default value',
    );
  const organization = owner.startsWith('urn:li:organization:');
  const member = memberWith(
    ctx,
    [organization ? 'w_organization_social' : 'w_member_social'],
    resource,
  );
  if (typeof member !== 'string') return member;
  if (ctx.world.mayActAs(member, owner)) return undefined;
  // The Videos API's own wording (and shape) for an owner the caller may not act as.
  return resource.startsWith('videos.')
    ? {
        status: 403,
        body: {
          message:
            'Accessing this video resource is forbidden. Please check your permissions for this resource',
          status: 403,
        },
      }
    : liError(403, 'ACCESS_DENIED', `Not enough permissions to access: ${resource}`);
}

function initialize(ctx: LinkedInContext, kind: MediaKind, limits: LinkedInMediaLimits): Answer {
  const request = objectField(ctx.json?.initializeUploadRequest);
  const refused = ownerCheck(ctx, request?.owner, `${kind}s.ACTION.initializeUpload`);
  if (refused) return refused;
  const owner = String(request?.owner);
  const expires = Date.now() + 24 * 3_600_000;
  if (kind !== 'video') {
    const upload = ctx.world.initializeUpload(kind, owner, 0, Number.MAX_SAFE_INTEGER, 0);
    const uploadUrl = upload.parts[0]?.uploadUrl;
    return {
      status: 200,
      body: { value: { uploadUrlExpiresAt: expires, uploadUrl, [kind]: upload.urn } },
    };
  }
  const size = request?.fileSizeBytes;
  if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) {
    return unprocessable(
      '/initializeUploadRequest/fileSizeBytes',
      'field is required but not found and has no default value',
    );
  }
  if (size > limits.maxVideoBytes) {
    return unprocessable(
      '/initializeUploadRequest/fileSizeBytes',
      `file size ${size} exceeds the maximum of ${limits.maxVideoBytes} bytes`,
    );
  }
  const upload = ctx.world.initializeUpload(
    'video',
    owner,
    size,
    limits.videoPartBytes,
    limits.videoProcessingPolls,
  );
  return {
    status: 200,
    body: {
      value: {
        uploadUrlsExpireAt: expires,
        video: upload.urn,
        uploadInstructions: upload.parts.map(({ uploadUrl, firstByte, lastByte }) => ({
          uploadUrl,
          firstByte,
          lastByte,
        })),
        uploadToken: '',
      },
    },
  };
}

function finalize(ctx: LinkedInContext): Answer {
  const request = objectField(ctx.json?.finalizeUploadRequest);
  const upload = ctx.world.uploads.get(String(request?.video));
  if (!upload || upload.kind !== 'video') return liError(404, 'NOT_FOUND', 'Video not found');
  const refused = ownerCheck(ctx, upload.owner, 'videos.ACTION.finalizeUpload');
  if (refused) return refused;
  const ids = request?.uploadedPartIds;
  const expected = upload.parts.map((part) => part.etag);
  if (!Array.isArray(ids) || expected.includes(null) || ids.join() !== expected.join()) {
    return liError(
      400,
      'ILLEGAL_ARGUMENT',
      'The uploadedPartIds do not match the uploaded parts of this video',
    );
  }
  ctx.world.complete(upload);
  return { status: 200, body: {} };
}

/** `PUT` to an upload URL: the whole image or document, or one part of a video. */
function put(ctx: LinkedInContext, path: string): Answer {
  const target = ctx.world.uploadUrls.get(path);
  const upload = target && ctx.world.uploads.get(target.urn);
  const part = upload?.parts[target?.part ?? -1];
  if (!upload || !part) return liError(404, 'NOT_FOUND', 'Upload URL not found');
  if (!ctx.grant) return liError(401, 'EMPTY_ACCESS_TOKEN', 'Empty oauth2 access token', 65604);
  if (upload.kind === 'video' && ctx.raw.length !== part.lastByte - part.firstByte + 1) {
    return liError(
      400,
      'ILLEGAL_ARGUMENT',
      `Expected ${part.lastByte - part.firstByte + 1} bytes in this part, got ${ctx.raw.length}`,
    );
  }
  upload.received[target.part] = ctx.raw;
  if (upload.kind !== 'video') {
    ctx.world.complete(upload);
    if (upload.kind === 'image' && !isImage(ctx.raw)) upload.status = 'PROCESSING_FAILED';
    return { status: 201 };
  }
  part.etag = `/ambry-video/signedId/${createHash('sha256').update(ctx.raw).digest('hex').slice(0, 32)}`;
  return { status: 200, headers: { etag: part.etag } };
}

function status(ctx: LinkedInContext, kind: MediaKind, urn: string): Answer {
  const upload = ctx.world.uploads.get(urn);
  if (!upload || upload.kind !== kind) return liError(404, 'NOT_FOUND', `${kind} not found`);
  // Member tokens may not read their images and documents (w_member_social is write-only).
  const scopes =
    kind === 'video' || upload.owner.startsWith('urn:li:organization:')
      ? ['w_member_social', 'r_organization_social', 'w_organization_social']
      : ['r_member_social'];
  const member = memberWith(ctx, scopes, `${kind}s.GET`);
  if (typeof member !== 'string') return member;
  if (upload.status === 'PROCESSING' && upload.pollsLeft-- <= 0) upload.status = 'AVAILABLE';
  return { status: 200, body: { id: urn, owner: upload.owner, status: upload.status } };
}

export function linkedinMediaRoutes(limits: LinkedInMediaLimits): RouteEntry<LinkedInContext>[] {
  return [
    [
      'POST',
      /^\/rest\/(images|videos|documents)$/,
      (ctx, match) => {
        const kind = KINDS[match[1] ?? ''] ?? 'image';
        const action = ctx.url.searchParams.get('action');
        if (action === 'initializeUpload') return initialize(ctx, kind, limits);
        if (action === 'finalizeUpload' && kind === 'video') return finalize(ctx);
        return liError(400, 'ILLEGAL_ARGUMENT', `Unknown action ${action ?? ''}`);
      },
    ],
    ['PUT', /^\/dms-uploads\/[0-9a-f]+$/, (ctx) => put(ctx, ctx.url.pathname)],
    [
      'GET',
      /^\/rest\/(images|videos|documents)\/([^/]+)$/,
      (ctx, match) =>
        status(ctx, KINDS[match[1] ?? ''] ?? 'image', decodeURIComponent(match[2] ?? '')),
    ],
  ];
}
