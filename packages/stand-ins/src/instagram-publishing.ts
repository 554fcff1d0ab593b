import { ContainerBook, fetchMedia, sniff } from './graph-containers';
import {
  GraphError,
  graphId,
  invalidParameter,
  required,
  text,
  type GraphRequest,
} from './graph-kit';

/**
 * Instagram's content publishing, as the stand-in keeps it: containers made from media it
 * really fetches by URL (JPEG images up to 8 MiB fetched at once, reels and carousel videos
 * while processing), carousels of 2 to 10 finished items, and `media_publish` of a finished
 * container within the account's 24-hour publishing limit. Error codes are those of the
 * Instagram Platform's error-codes reference.
 */

export interface Spec {
  kind: 'IMAGE' | 'REELS' | 'VIDEO' | 'CAROUSEL';
  caption: string;
  carouselItem: boolean;
  url?: string;
  altText?: string;
  children: string[];
}

export interface InstagramMedia {
  id: string;
  owner: string;
  kind: Spec['kind'];
  caption: string;
  /** The URLs fetched for it (each carousel item's). */
  urls: string[];
  altTexts: (string | undefined)[];
  permalink: string;
  publishedAt: Date;
}

const MAX_IMAGE = 8 * 1024 * 1024;
const MAX_VIDEO = 300 * 1024 * 1024;
const MAX_CAPTION = 2200;

const igError = (code: number, subcode: number, message: string, userMessage?: string) =>
  new GraphError(400, code, message, { subcode, userMessage });

const notReady = () =>
  igError(
    9007,
    2207027,
    'Media ID is not available',
    'The media is not ready for publishing, please wait for a moment',
  );

export function instagramPublishing(options: { publishLimit?: number; videoPolls?: number }) {
  const containers = new ContainerBook<Spec>();
  const media: InstagramMedia[] = [];
  const publishLimit = options.publishLimit ?? 50;

  /** Images are fetched while the container is created; videos while it is processed. */
  const fetched = async (spec: Spec): Promise<{ error?: string }> => {
    const video = spec.kind !== 'IMAGE';
    const got = await fetchMedia(spec.url ?? '', video ? MAX_VIDEO : MAX_IMAGE);
    if (!got.ok && got.reason === 'unreachable') {
      if (video) return { error: 'Error: Media download has failed (2207052)' };
      throw igError(
        9004,
        2207052,
        'The media could not be fetched from this uri',
        "Media download has failed. The media URI doesn't meet our requirements.",
      );
    }
    if (!got.ok) {
      if (video) return { error: 'Error: The video file is too large (2207026)' };
      throw igError(
        36000,
        2207004,
        'The image size is too large.',
        'The image is too large to download. It should be less than 8 MiB.',
      );
    }
    const format = sniff(got.bytes);
    if (video && format !== 'mp4') return { error: 'Error: Unsupported video format (2207026)' };
    if (!video && format !== 'jpeg') {
      throw igError(
        36001,
        2207005,
        'The image format is not supported.',
        'Only JPEG images can be published.',
      );
    }
    return {};
  };

  const create = async (req: GraphRequest, owner: string) => {
    const caption = text(req.params, 'caption') ?? '';
    if ([...caption].length > MAX_CAPTION)
      throw invalidParameter('(#100) The caption is longer than 2,200 characters');
    const type = text(req.params, 'media_type') ?? 'IMAGE';
    const carouselItem = text(req.params, 'is_carousel_item') === 'true';
    const spec: Spec = {
      kind: type as Spec['kind'],
      caption,
      carouselItem,
      children: [],
      altText: text(req.params, 'alt_text'),
    };
    if (type === 'CAROUSEL') {
      spec.children = required(req.params, 'children').split(',');
      if (spec.children.length < 2 || spec.children.length > 10) {
        throw igError(100, 2207028, 'A carousel takes 2 to 10 items.');
      }
      for (const id of spec.children) {
        const child = containers.get(id, owner);
        if (!child.spec.carouselItem) throw invalidParameter(`(#100) ${id} is not a carousel item`);
        if (child.status !== 'FINISHED') throw notReady();
      }
      return containers.create(owner, spec);
    }
    if (type === 'VIDEO' && !carouselItem) {
      throw igError(
        100,
        2207023,
        'The media type VIDEO is not supported; publish videos as REELS.',
      );
    }
    if (type !== 'IMAGE' && type !== 'REELS' && type !== 'VIDEO') {
      throw igError(100, 2207023, `The media type ${type} is unknown.`);
    }
    spec.url = required(req.params, type === 'IMAGE' ? 'image_url' : 'video_url');
    const { error } = await fetched(spec);
    return containers.create(owner, spec, {
      error,
      pollsLeft: type === 'IMAGE' ? 0 : (options.videoPolls ?? 1),
    });
  };

  const publishedToday = (owner: string) =>
    media.filter((m) => m.owner === owner && Date.now() - m.publishedAt.getTime() < 86_400_000)
      .length;

  const publish = (req: GraphRequest, owner: string) => {
    const container = containers.get(required(req.params, 'creation_id'), owner);
    if (container.spec.carouselItem)
      throw invalidParameter('(#100) A carousel item is published with its carousel');
    if (container.status === 'IN_PROGRESS') {
      throw notReady();
    }
    if (container.status === 'EXPIRED') {
      throw igError(
        -2,
        2207020,
        'The media you are trying to access has expired. Please try to upload again.',
      );
    }
    if (container.status !== 'FINISHED')
      throw invalidParameter(`(#100) The container is ${container.status}`);
    if (publishedToday(owner) >= publishLimit) {
      throw igError(
        9,
        2207042,
        'Application request limit reached',
        'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
      );
    }
    const items =
      container.spec.kind === 'CAROUSEL'
        ? container.spec.children.map((id) => containers.get(id, owner).spec)
        : [container.spec];
    const shortcode = graphId().slice(-11);
    const item: InstagramMedia = {
      id: graphId(),
      owner: owner,
      kind: container.spec.kind,
      caption: container.spec.caption,
      urls: items.map((spec) => spec.url ?? ''),
      altTexts: items.map((spec) => spec.altText),
      permalink: `https://www.instagram.com/${container.spec.kind === 'REELS' ? 'reel' : 'p'}/${shortcode}/`,
      publishedAt: new Date(),
    };
    media.push(item);
    container.status = 'PUBLISHED';
    container.publishedId = item.id;
    return { id: item.id };
  };

  return { containers, media, publishLimit, create, publish, publishedToday };
}
