import { NetworkError } from '../../http';
import type { ProviderContext, PublishMedia, PublishRequest, Published } from '../../provider';
import { ProviderError } from '../common/provider-error';
import { linkedinApi, postUrl, type LinkedInApi } from './api';
import { littleText } from './little-text';
import { awaitProcessed, kindOf, uploadMedia } from './media';

/**
 * A target to LinkedIn (no threads): its attachments uploaded one by one, each URN saved in
 * the progress as it is done; the post (`POST /rest/posts`, its URN in `x-restli-id`), saved;
 * then the first comment. A retry continues from the progress: no attachment is uploaded
 * twice and no post is created twice by Chorus. LinkedIn takes no idempotency key, so a
 * create whose answer is lost is an unknown outcome (the engine's `unconfirmed`).
 */

const list = (value: string | string[] | undefined) => (Array.isArray(value) ? value : []);
const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/** `content` of the post: one image, video or document as `media`, several images as `multiImage`. */
function contentOf(media: PublishMedia[], urns: string[]) {
  const [first] = media;
  if (!first) return {};
  if (media.length > 1) {
    return {
      content: {
        multiImage: {
          images: media.map((item, index) => ({
            id: urns[index],
            ...(item.altText ? { altText: item.altText } : {}),
          })),
        },
      },
    };
  }
  const kind = kindOf(first);
  const label = first.altText ?? undefined;
  // A document needs a title (shown on its viewer); an image takes alt text.
  const extra =
    kind === 'image'
      ? label
        ? { altText: label }
        : {}
      : kind === 'document'
        ? { title: label ?? 'Document' }
        : label
          ? { title: label }
          : {};
  return { content: { media: { id: urns[0], ...extra } } };
}

/** LinkedIn refuses the same content twice from one author, naming the post it already has. */
const DUPLICATE = /Content is a duplicate of (urn:li:(?:share|ugcPost):\d+)/;
/** A gateway timing out or failing after the request arrived may have left the post created. */
const MAYBE_DONE = new Set([500, 502, 504]);

async function createPost(api: LinkedInApi, author: string, text: string, content: object) {
  try {
    const { headers } = await api.post('/rest/posts', {
      author,
      commentary: littleText(text),
      visibility: 'PUBLIC',
      distribution: {
        feedDistribution: 'MAIN_FEED',
        targetEntities: [],
        thirdPartyDistributionChannels: [],
      },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
      ...content,
    });
    const urn = headers.get('x-restli-id');
    if (!urn)
      throw new ProviderError({
        class: 'unknown_outcome',
        message: 'LinkedIn created a post without naming it.',
      });
    return urn;
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    const { status = 0, body } = error.details;
    const duplicate = DUPLICATE.exec(
      String((body as { message?: unknown } | undefined)?.message ?? ''),
    );
    if (status === 422 && duplicate?.[1]) return duplicate[1];
    if (MAYBE_DONE.has(status)) {
      throw new ProviderError({
        class: 'unknown_outcome',
        message: `LinkedIn answered ${status} to the post; it may exist.`,
      });
    }
    throw error;
  }
}

export async function publishLinkedIn(
  request: PublishRequest,
  context: ProviderContext,
): Promise<Published> {
  const api = linkedinApi(context, request.channel.credentials.accessToken);
  const author = request.channel.externalId;
  const progress = { ...request.progress };
  let post = one(progress.post);
  if (!post) {
    const part = request.parts[0] ?? { text: '', media: [] };
    const urns = [...list(progress.media)];
    for (const media of part.media.slice(urns.length)) {
      urns.push(await uploadMedia(api, media, author));
      progress.media = [...urns];
      await request.saveProgress({ ...progress });
    }
    for (const [index, media] of part.media.entries()) {
      if (kindOf(media) === 'video') await awaitProcessed(api, urns[index] ?? '', context);
    }
    post = await createPost(api, author, part.text, contentOf(part.media, urns));
    progress.post = post;
    await request.saveProgress({ ...progress });
  }
  if (request.firstComment !== null && one(progress.comment) === undefined) {
    const { headers } = await api.post(`/rest/socialActions/${encodeURIComponent(post)}/comments`, {
      actor: author,
      object: post,
      message: { text: request.firstComment },
    });
    progress.comment = headers.get('x-restli-id') ?? '';
    await request.saveProgress({ ...progress });
  }
  return { externalId: post, url: postUrl(post) };
}
