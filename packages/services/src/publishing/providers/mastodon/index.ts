import { NETWORK_LIMITS } from '@chorus/validators';
import { z } from 'zod';
import { NetworkError } from '../../http';
import type { PostFigures, Provider } from '../../provider';
import { batches } from '../common/json';
import { ProviderError } from '../common/provider-error';
import { publishReplyChain, replyChainHead, replyChainKeep } from '../common/reply-chain';
import { mastodonApi, ZStatus, type MastodonApi } from './api';
import { discoverMastodonChannels } from './channels';
import { classifyMastodon } from './classify';

/** `GET /api/v1/statuses` reads this many `id[]` at a time. */
const STATUS_BATCH = 20;

async function statusesById(api: MastodonApi, ids: string[]) {
  const query = ids.map((id) => `id[]=${encodeURIComponent(id)}`).join('&');
  try {
    return z.array(ZStatus).parse(await api.get(`/api/v1/statuses?${query}`));
  } catch (error) {
    if (!(error instanceof NetworkError && error.details.status === 404)) throw error;
  }
  // Before Mastodon 4.3 there is no batch: one status at a time, a deleted one left out.
  const found: z.infer<typeof ZStatus>[] = [];
  for (const id of ids) {
    try {
      found.push(ZStatus.parse(await api.get(`/api/v1/statuses/${encodeURIComponent(id)}`)));
    } catch (error) {
      if (!(error instanceof NetworkError && error.details.status === 404)) throw error;
    }
  }
  return found;
}

/**
 * Mastodon: statuses with an `Idempotency-Key` derived from the target and the part, so a
 * retry within Mastodon's hour lands on the status already made (hence `idempotent`); media
 * through v2 with alt text as `description`; threads and the first comment as replies.
 */
export const mastodonProvider: Provider = {
  network: 'mastodon',
  name: 'Mastodon',
  limits: NETWORK_LIMITS.mastodon,
  idempotent: true,
  discoverChannels: discoverMastodonChannels,
  validate: () => [],
  publish(request, context) {
    const api = mastodonApi(context, request.channel.credentials.accessToken);
    return publishReplyChain(request, async (next) => {
      const mediaIds: string[] = [];
      for (const media of next.media) mediaIds.push(await api.upload(media));
      const status = ZStatus.parse(
        await api.post(
          '/api/v1/statuses',
          {
            status: next.text,
            ...(mediaIds.length > 0 && { media_ids: mediaIds }),
            ...(next.inReplyTo !== null && { in_reply_to_id: next.inReplyTo }),
          },
          { 'idempotency-key': next.key },
        ),
      );
      return { id: status.id, url: status.url ?? status.uri };
    });
  },
  async refresh() {
    throw new ProviderError({
      class: 'revoked',
      message:
        'Mastodon access tokens do not expire and cannot be refreshed: connect the account again.',
    });
  },
  head: replyChainHead,
  keepParts: replyChainKeep,
  classify: classifyMastodon,
  async metrics(externalIds, channel, context) {
    const api = mastodonApi(context, channel.credentials.accessToken);
    const wanted = new Set(externalIds);
    const figures = new Map<string, PostFigures>();
    for (const batch of batches(externalIds, STATUS_BATCH)) {
      for (const status of await statusesById(api, batch)) {
        if (!wanted.has(status.id)) continue;
        figures.set(status.id, {
          like: status.favourites_count,
          share: status.reblogs_count,
          comment: status.replies_count,
        });
      }
    }
    return figures;
  },
};
