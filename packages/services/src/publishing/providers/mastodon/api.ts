import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ProviderContext, PublishMedia } from '../../provider';
import { bearerCall } from '../common/json';
import { filenameFor, multipartBody } from '../common/multipart';
import { ProviderError } from '../common/provider-error';

/** A Mastodon instance's REST API, as one account (docs.joinmastodon.org/methods). */

export const ZStatus = z.object({
  id: z.string(),
  uri: z.string(),
  url: z.string().nullish(),
  favourites_count: z.number(),
  reblogs_count: z.number(),
  replies_count: z.number(),
});
const ZMedia = z.object({ id: z.string(), url: z.string().nullish() });

/** A 100 MB video on a slow link takes minutes; the default 30 s is for ordinary calls. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
/** How long a video may stay in processing before the attempt gives up (and is retried). */
const PROCESSING_LIMIT_MS = 5 * 60_000;
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 5_000;

export const instanceBase = (url: string) => url.replace(/\/+$/, '');

export function mastodonApi(context: ProviderContext, accessToken: string) {
  const base = instanceBase(context.apiUrl);
  const call = bearerCall(base, accessToken, context);

  /** Media v2: uploaded at once, then (202) polled until its full-size `url` is set. */
  async function upload(media: PublishMedia): Promise<string> {
    const form = multipartBody(media.altText ? [['description', media.altText]] : [], {
      field: 'file',
      filename: filenameFor(media.id, media.mimeType),
      mimeType: media.mimeType,
      size: media.size,
      content: await media.open(),
    });
    const created = ZMedia.parse(
      await call('/api/v2/media', {
        method: 'POST',
        body: form.body,
        headers: form.headers,
        duplex: 'half',
        timeoutMs: UPLOAD_TIMEOUT_MS,
      }),
    );
    const started = Date.now();
    let current = created;
    for (let wait = FIRST_POLL_MS; !current.url; wait = Math.min(wait * 2, MAX_POLL_MS)) {
      if (Date.now() - started > PROCESSING_LIMIT_MS) {
        throw new ProviderError({
          class: 'transient',
          message: 'Mastodon is still processing the media.',
        });
      }
      await sleep(wait, undefined, { signal: context.signal });
      // 206 while processing, 200 with the url once done, 422 if processing failed.
      current = ZMedia.parse(await call(`/api/v1/media/${encodeURIComponent(created.id)}`));
    }
    return created.id;
  }

  return {
    base,
    get: (path: string) => call(path),
    post: (path: string, json: unknown, headers: Record<string, string> = {}) =>
      call(path, { method: 'POST', json, headers }),
    upload,
  };
}

export type MastodonApi = ReturnType<typeof mastodonApi>;
