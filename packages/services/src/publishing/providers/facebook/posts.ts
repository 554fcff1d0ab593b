import { z } from 'zod';
import type { PublishMedia, PublishPart } from '../../provider';
import { filenameFor } from '../common/multipart';
import { fromStorage, ZId, type Graph } from '../meta/graph';
import type { Progress } from '../meta/progress';

/**
 * A Facebook Page post made from a target's part: text and its link to the feed, one photo as
 * a photo post, several as unpublished photos attached to one feed post, or a video.
 */

const ZPhoto = z.object({ id: z.string(), post_id: z.string().optional() });
const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/;

/** Uploads go to graph-video.facebook.com (the Video API); any other host serves both. */
const videoHost = (apiUrl: string) =>
  apiUrl.replace('//graph.facebook.com', '//graph-video.facebook.com');

const upload = async (media: PublishMedia) => ({
  field: 'source',
  filename: filenameFor(media.id, media.mimeType),
  mimeType: media.mimeType,
  size: media.size,
  content: await fromStorage(() => media.open()),
});

/** Creates the post (or video) and answers its id; unpublished photos are saved as they go up. */
export async function createPost(
  graph: Graph,
  page: string,
  part: PublishPart,
  progress: Progress,
  apiUrl: string,
) {
  const [first, ...others] = part.media;
  if (!first) {
    const link = URL_IN_TEXT.exec(part.text)?.[0];
    return (await graph.post(`${page}/feed`, ZId, { message: part.text, link })).id;
  }
  if (first.mimeType.startsWith('video/')) {
    const fields = { description: part.text };
    return (
      await graph.upload(`${page}/videos`, ZId, fields, await upload(first), {
        base: videoHost(apiUrl),
      })
    ).id;
  }
  if (others.length === 0) {
    const photo = await graph.upload(
      `${page}/photos`,
      ZPhoto,
      { message: part.text, alt_text_custom: first.altText },
      await upload(first),
    );
    return photo.post_id ?? photo.id;
  }
  // Unpublished photos show nowhere until attached, so uploading one again is harmless.
  const photos = progress.list('photos');
  for (const media of part.media.slice(photos.length)) {
    const fields = { published: 'false', alt_text_custom: media.altText };
    photos.push(
      (await graph.upload(`${page}/photos`, ZPhoto, fields, await upload(media), { safe: true }))
        .id,
    );
    await progress.save({ photos });
  }
  const attached = JSON.stringify(photos.map((id) => ({ media_fbid: id })));
  return (await graph.post(`${page}/feed`, ZId, { message: part.text, attached_media: attached }))
    .id;
}
