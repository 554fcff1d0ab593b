import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ProviderContext, PublishMedia } from '../../provider';
import { ProviderError } from '../common/provider-error';
import type { LinkedInApi } from './api';

/**
 * Media to LinkedIn: the Images API and Documents API take one PUT of the file to the URL
 * `initializeUpload` answers; the Videos API takes the file in the parts it lists (4 MiB
 * each), each PUT answering an ETag that `finalizeUpload` confirms, and then processes it.
 * https://learn.microsoft.com/linkedin/marketing/community-management/shares/images-api,
 * …/videos-api, …/documents-api
 */

export type MediaKind = 'image' | 'video' | 'document';
export const kindOf = (media: { mimeType: string }): MediaKind =>
  media.mimeType.startsWith('video/')
    ? 'video'
    : media.mimeType === 'application/pdf'
      ? 'document'
      : 'image';

const UPLOAD_TIMEOUT_MS = 10 * 60_000;
/** How long a video may stay in processing within one attempt (the engine retries later). */
const PROCESSING_LIMIT_MS = 2 * 60_000;
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 5_000;

const ZSingle = z.object({ value: z.object({ uploadUrl: z.string() }).catchall(z.unknown()) });
const ZVideo = z.object({
  value: z.object({
    video: z.string(),
    uploadToken: z.string().optional(),
    uploadInstructions: z.array(
      z.object({ uploadUrl: z.string(), firstByte: z.number(), lastByte: z.number() }),
    ),
  }),
});
const ZStatus = z.object({ status: z.string() });

/** Reads a stream in exact slices: a video part at a time, never the whole file. */
function sliceReader(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  let pending: Uint8Array = new Uint8Array(0);
  return async (length: number): Promise<Uint8Array<ArrayBuffer>> => {
    const out = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      if (pending.length === 0) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`The media ended ${length - filled} bytes early.`);
        pending = value;
      }
      const take = Math.min(pending.length, length - filled);
      out.set(pending.subarray(0, take), filled);
      pending = pending.subarray(take);
      filled += take;
    }
    return out;
  };
}

async function uploadVideo(api: LinkedInApi, media: PublishMedia, owner: string) {
  const { data } = await api.post('/rest/videos?action=initializeUpload', {
    initializeUploadRequest: {
      owner,
      fileSizeBytes: media.size,
      uploadCaptions: false,
      uploadThumbnail: false,
    },
  });
  const { video, uploadToken = '', uploadInstructions } = ZVideo.parse(data).value;
  const read = sliceReader(await media.open());
  const etags: string[] = [];
  for (const part of uploadInstructions) {
    const bytes = await read(part.lastByte - part.firstByte + 1);
    const { headers } = await api.put(part.uploadUrl, {
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
      timeoutMs: UPLOAD_TIMEOUT_MS,
    });
    etags.push(headers.get('etag') ?? '');
  }
  await api.post('/rest/videos?action=finalizeUpload', {
    finalizeUploadRequest: { video, uploadToken, uploadedPartIds: etags },
  });
  return video;
}

/** Uploads one attachment as `owner` (the post's author); its URN. */
export async function uploadMedia(
  api: LinkedInApi,
  media: PublishMedia,
  owner: string,
): Promise<string> {
  const kind = kindOf(media);
  if (kind === 'video') return uploadVideo(api, media, owner);
  const { data } = await api.post(`/rest/${kind}s?action=initializeUpload`, {
    initializeUploadRequest: { owner },
  });
  const { value } = ZSingle.parse(data);
  const urn = z.string().parse(value[kind]);
  await api.put(value.uploadUrl, {
    body: await media.open(),
    duplex: 'half',
    headers: { 'content-type': media.mimeType, 'content-length': String(media.size) },
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  return urn;
}

/**
 * Waits (briefly) until a video is AVAILABLE, as a post may only use processed media. Images
 * and a member's documents cannot be read back with posting scopes; they are ready once sent.
 */
export async function awaitProcessed(api: LinkedInApi, urn: string, context: ProviderContext) {
  const started = Date.now();
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, MAX_POLL_MS)) {
    const { status } = ZStatus.parse(await api.get(`/rest/videos/${encodeURIComponent(urn)}`));
    if (status === 'AVAILABLE') return;
    if (status === 'PROCESSING_FAILED') {
      throw new ProviderError({
        class: 'rejected',
        message: 'LinkedIn could not process the video.',
      });
    }
    if (Date.now() - started > PROCESSING_LIMIT_MS) {
      throw new ProviderError({
        class: 'transient',
        message: 'LinkedIn is still processing the video.',
      });
    }
    await sleep(wait, undefined, { signal: context.signal });
  }
}
