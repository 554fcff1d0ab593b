import { createHash } from 'node:crypto';
import { sniff } from './graph-containers';
import {
  GraphError,
  graphId,
  invalidParameter,
  text,
  type GraphRequest,
  type GraphParams,
} from './graph-kit';

/**
 * A Page's posts, as the Facebook stand-in keeps them: feed posts (text, a link, or unpublished
 * photos attached with `attached_media`), photos uploaded as multipart `source` (under 4 MB,
 * published as a post or kept unpublished), and videos (MP4 of at least 1 KB).
 */

export interface FacebookPost {
  id: string;
  pageId: string;
  message: string;
  link?: string;
  /** Photo ids (one published photo, or the unpublished photos attached). */
  photos: string[];
  videoId?: string;
}

export interface FacebookVideo {
  pageId: string;
  description: string;
  bytes: number;
  sha256: string;
  /** Processing's verdict: `error` for bytes that are no MP4. */
  status: 'ready' | 'error';
}

export interface FacebookPhoto {
  id: string;
  pageId: string;
  published: boolean;
  attachedTo?: string;
  bytes: number;
  altText?: string;
}

/** Photos under 4 MB, as Graph's error 1366046 tells people. */
const MAX_PHOTO = 4 * 1024 * 1024;
/** The Video API refuses files under 1 KB (error 1363022). */
const MIN_VIDEO = 1024;
const MAX_MESSAGE = 63_206;

const cannotRead = () =>
  new GraphError(400, 100, 'Invalid parameter', {
    subcode: 1366046,
    userTitle: "Can't Read Files",
    userMessage:
      "Your photos couldn't be uploaded. Photos should be less than 4 MB and saved as JPG, PNG, GIF, TIFF, HEIF or WebP files.",
  });

export function facebookPosts() {
  const posts: FacebookPost[] = [];
  const photos = new Map<string, FacebookPhoto>();
  const videos = new Map<string, FacebookVideo>();

  const source = (params: GraphParams) => {
    const file = params.get('source');
    if (!(file instanceof File)) throw new GraphError(400, 324, '(#324) Requires upload file');
    return file;
  };

  const feed = (req: GraphRequest, pageId: string) => {
    const message = text(req.params, 'message') ?? '';
    const link = text(req.params, 'link');
    const attached = attachedMedia(req.params).map((id) => {
      const photo = photos.get(id);
      if (!photo || photo.pageId !== pageId || photo.published || photo.attachedTo) {
        throw invalidParameter(
          `(#100) Invalid attached_media: media_fbid ${id} cannot be attached`,
        );
      }
      return photo;
    });
    if (!message && !link && attached.length === 0) {
      throw invalidParameter('(#100) Missing message or attachment');
    }
    if ([...message].length > MAX_MESSAGE) throw invalidParameter('(#100) Message is too long');
    const previous = posts.findLast((post) => post.pageId === pageId);
    if (attached.length === 0 && previous?.message === message && message !== '') {
      throw new GraphError(400, 506, '(#506) Duplicate status message');
    }
    const post = record(pageId, message, { link, photos: attached.map((photo) => photo.id) });
    for (const photo of attached) photo.attachedTo = post.id;
    return { id: post.id };
  };

  const record = (pageId: string, message: string, extra: Partial<FacebookPost> = {}) => {
    const post: FacebookPost = {
      id: `${pageId}_${graphId()}`,
      pageId,
      message,
      photos: [],
      ...extra,
    };
    posts.push(post);
    return post;
  };

  const photo = async (req: GraphRequest, pageId: string) => {
    const file = source(req.params);
    const kind = sniff(Buffer.from(await file.arrayBuffer()));
    if (file.size > MAX_PHOTO || kind === 'mp4' || kind === 'other') throw cannotRead();
    const published = text(req.params, 'published') !== 'false';
    const id = graphId();
    photos.set(id, {
      id,
      pageId: pageId,
      published,
      bytes: file.size,
      altText: text(req.params, 'alt_text_custom'),
    });
    if (!published) return { id };
    const caption = text(req.params, 'message') ?? text(req.params, 'caption') ?? '';
    const post = record(pageId, caption, { photos: [id] });
    return { id, post_id: post.id };
  };

  // The upload is taken whole and processed afterwards: bytes that are no video end in a video
  // status of `error`, as Facebook's processing reports it.
  const video = async (req: GraphRequest, pageId: string) => {
    const file = source(req.params);
    if (file.size < MIN_VIDEO) {
      throw new GraphError(
        400,
        6000,
        'The video you tried to upload is too small. The minimum size for a video is 1 KB.',
        {
          subcode: 1363022,
        },
      );
    }
    const bytes = Buffer.from(await file.arrayBuffer());
    const id = graphId();
    const description = text(req.params, 'description') ?? '';
    videos.set(id, {
      pageId,
      description,
      bytes: file.size,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      status: sniff(bytes) === 'mp4' ? 'ready' : 'error',
    });
    record(pageId, description, { videoId: id });
    return { id };
  };

  const owner = (id: string) => videos.get(id)?.pageId ?? posts.find((p) => p.id === id)?.pageId;

  return { posts, photos, videos, feed, photo, video, owner };
}

/** `attached_media` as a JSON list, or as `attached_media[0]`, `attached_media[1]`… */
function attachedMedia(params: GraphParams): string[] {
  const entries: unknown[] = [];
  const whole = text(params, 'attached_media');
  if (whole) entries.push(...(JSON.parse(whole) as unknown[]));
  for (let i = 0; params.has(`attached_media[${i}]`); i++) {
    entries.push(JSON.parse(text(params, `attached_media[${i}]`) ?? 'null'));
  }
  return entries.map((entry) => {
    const id = (entry as { media_fbid?: unknown } | null)?.media_fbid;
    if (typeof id !== 'string') throw invalidParameter('(#100) attached_media needs media_fbid');
    return id;
  });
}
