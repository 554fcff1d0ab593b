import type { ProviderContext, PublishMedia } from '../../provider';
import type { Session } from './session';
import { upload } from './xrpc';

/** A blob reference as com.atproto.repo.uploadBlob answers it and records embed it. */
interface BlobRef {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

/** Streams one attachment from storage to the account's PDS. */
async function uploadBlob(media: PublishMedia, session: Session, context: ProviderContext) {
  const { blob } = await upload<{ blob: BlobRef }>(
    context,
    'com.atproto.repo.uploadBlob',
    { stream: await media.open(), mimeType: media.mimeType, size: media.size },
    { token: session.accessJwt },
  );
  return blob;
}

/** app.bsky.embed.defs#aspectRatio, when the dimensions are known. */
const aspectRatio = (media: PublishMedia) =>
  media.width && media.height && media.width > 0 && media.height > 0
    ? { aspectRatio: { width: media.width, height: media.height } }
    : {};

/**
 * The embed of a part's attachments: app.bsky.embed.video for a video (one, alone), else
 * app.bsky.embed.images (up to four, each with its alt text, required by the lexicon even
 * when empty). The video goes to the PDS like an image, the "simple method" of
 * https://docs.bsky.app/docs/tutorials/video: Bluesky's video service processes it once the
 * post is in the firehose.
 */
export async function embedOf(
  media: PublishMedia[],
  session: Session,
  context: ProviderContext,
): Promise<Record<string, unknown> | undefined> {
  const video = media.find((item) => item.mimeType.startsWith('video/'));
  if (video) {
    return {
      $type: 'app.bsky.embed.video',
      video: await uploadBlob(video, session, context),
      ...(video.altText ? { alt: video.altText } : {}),
      ...aspectRatio(video),
    };
  }
  if (media.length === 0) return undefined;
  const images = [];
  // One at a time: each upload is a stream from storage, and the PDS limits uploads per account.
  for (const item of media) {
    images.push({
      image: await uploadBlob(item, session, context),
      alt: item.altText ?? '',
      ...aspectRatio(item),
    });
  }
  return { $type: 'app.bsky.embed.images', images };
}
