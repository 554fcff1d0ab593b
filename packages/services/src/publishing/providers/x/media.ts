import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { NetworkError } from '../../http';
import type { PublishMedia } from '../../provider';
import { multipartBody } from '../common/multipart';
import { ProviderError } from '../common/provider-error';
import type { XApi } from './api';

/**
 * X's v2 media upload (docs.x.com/x-api/media): INITIALIZE, APPEND in segments read one at a
 * time from storage, FINALIZE, then STATUS while X processes a video or GIF (as long as its
 * `check_after_secs` says), and alt text through the metadata endpoint.
 */

/** X takes segments of up to 5 MB; one segment is all that is held in memory. */
const SEGMENT_BYTES = 4 * 1024 * 1024;
const APPEND_TIMEOUT_MS = 2 * 60_000;
const PROCESSING_LIMIT_MS = 10 * 60_000;

const ZUpload = z.object({
  data: z.object({
    id: z.string(),
    processing_info: z
      .object({
        state: z.enum(['pending', 'in_progress', 'succeeded', 'failed']),
        check_after_secs: z.number().optional(),
        error: z.object({ message: z.string().optional() }).optional(),
      })
      .optional(),
  }),
});

/** Video goes as `amplify_video`, the category X documents its 512 MB limit for. */
export const xMediaCategory = (mimeType: string) =>
  mimeType === 'image/gif'
    ? 'tweet_gif'
    : mimeType.startsWith('video/')
      ? 'amplify_video'
      : 'tweet_image';

async function* segments(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let segment = new Uint8Array(SEGMENT_BYTES);
  let filled = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (let offset = 0; offset < value.length;) {
        const take = Math.min(SEGMENT_BYTES - filled, value.length - offset);
        segment.set(value.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === SEGMENT_BYTES) {
          yield segment;
          segment = new Uint8Array(SEGMENT_BYTES);
          filled = 0;
        }
      }
    }
    if (filled > 0) yield segment.subarray(0, filled);
  } finally {
    reader.releaseLock();
  }
}

async function upload(api: XApi, media: PublishMedia): Promise<string> {
  const category = xMediaCategory(media.mimeType);
  const { id } = ZUpload.parse(
    await api.post('/2/media/upload/initialize', {
      media_type: media.mimeType,
      total_bytes: media.size,
      media_category: category,
    }),
  ).data;
  let index = 0;
  for await (const segment of segments(await media.open())) {
    const form = multipartBody([['segment_index', String(index)]], {
      field: 'media',
      filename: `${media.id}-${index}`,
      mimeType: 'application/octet-stream',
      size: segment.length,
      content: segment,
    });
    await api.call(`/2/media/upload/${id}/append`, {
      method: 'POST',
      body: form.body,
      headers: form.headers,
      duplex: 'half',
      timeoutMs: APPEND_TIMEOUT_MS,
    });
    index++;
  }
  let info = ZUpload.parse(await api.post(`/2/media/upload/${id}/finalize`)).data.processing_info;
  const started = Date.now();
  while (info?.state === 'pending' || info?.state === 'in_progress') {
    if (Date.now() - started > PROCESSING_LIMIT_MS) {
      throw new ProviderError({ class: 'transient', message: 'X is still processing the media.' });
    }
    await sleep((info.check_after_secs ?? 1) * 1000, undefined, { signal: api.signal });
    info = ZUpload.parse(await api.get(`/2/media/upload?command=STATUS&media_id=${id}`)).data
      .processing_info;
  }
  if (info?.state === 'failed') {
    throw new ProviderError({
      class: 'rejected',
      message: `X could not process the media: ${info.error?.message ?? 'no reason given'}`,
    });
  }
  // X documents alt text for images and GIFs.
  if (media.altText && category !== 'amplify_video') {
    await api.post('/2/media/metadata', { id, metadata: { alt_text: { text: media.altText } } });
  }
  return id;
}

/**
 * Uploads a post's media, in order. A connection cut during an upload cannot have made a post,
 * so it is transient here (not an unknown outcome, which X's lack of idempotency would turn
 * into `unconfirmed`).
 */
export async function uploadXMedia(api: XApi, media: PublishMedia[]): Promise<string[]> {
  const ids: string[] = [];
  try {
    for (const item of media) ids.push(await upload(api, item));
  } catch (error) {
    if (error instanceof NetworkError && error.details.status === undefined) {
      throw new ProviderError(
        {
          class: 'transient',
          message: `${error.message} (during a media upload)`,
        },
        { cause: error },
      );
    }
    throw error;
  }
  return ids;
}
