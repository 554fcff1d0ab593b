import { countLength } from '@chorus/validators';
import type { Profile } from './graph-login';
import { ContainerBook, fetchMedia, sniff } from './graph-containers';
import {
  GraphError,
  graphId,
  invalidParameter,
  missingObject,
  required,
  text,
  type GraphRequest,
} from './graph-kit';

/**
 * Threads' publishing, as the stand-in keeps it: containers (`TEXT`, `IMAGE`, `VIDEO`,
 * `CAROUSEL` of 2 to 20 items, replies with `reply_to_id`) from media it really fetches (JPEG or
 * PNG up to 8 MB at once, MP4 up to 1 GB while processing), text up to 500 characters counted
 * as Threads does (emoji as their UTF-8 bytes), and `threads_publish` of a finished container.
 */

export interface Spec {
  kind: 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
  text: string;
  carouselItem: boolean;
  url?: string;
  altText?: string;
  children: string[];
  replyTo?: string;
}

export interface ThreadsPost {
  id: string;
  owner: string;
  kind: Spec['kind'];
  text: string;
  urls: string[];
  altTexts: (string | undefined)[];
  replyTo?: string;
  permalink: string;
}

const MAX_IMAGE = 8 * 1024 * 1024;
const MAX_VIDEO = 1024 * 1024 * 1024;
const MAX_TEXT = 500;

const unfetchable = () =>
  new GraphError(400, 100, 'The media could not be fetched from this URI', {
    subcode: 2207052,
    userMessage: "Media download has failed. The media URI doesn't meet our requirements.",
  });

export function threadsPublishing(options: { videoPolls?: number }) {
  const containers = new ContainerBook<Spec>();
  const posts: ThreadsPost[] = [];

  const media = async (spec: Spec): Promise<{ error?: string }> => {
    const video = spec.kind === 'VIDEO';
    const got = await fetchMedia(spec.url ?? '', video ? MAX_VIDEO : MAX_IMAGE);
    const format = got.ok ? sniff(got.bytes) : 'other';
    if (video) return format === 'mp4' ? {} : { error: 'FAILED_DOWNLOADING_VIDEO' };
    if (!got.ok && got.reason === 'unreachable') throw unfetchable();
    if (format !== 'jpeg' && format !== 'png') {
      throw new GraphError(400, 100, 'The image must be a JPEG or PNG of at most 8 MB', {
        subcode: 2207005,
      });
    }
    return {};
  };

  const create = async (req: GraphRequest, owner: Profile) => {
    const kind = required(req.params, 'media_type') as Spec['kind'];
    const spec: Spec = {
      kind,
      text: text(req.params, 'text') ?? '',
      carouselItem: text(req.params, 'is_carousel_item') === 'true',
      altText: text(req.params, 'alt_text'),
      children: [],
      replyTo: text(req.params, 'reply_to_id'),
    };
    if (countLength('threads', spec.text) > MAX_TEXT) {
      throw invalidParameter('(#100) Param text must be at most 500 characters long.');
    }
    if (spec.replyTo && !posts.some((post) => post.id === spec.replyTo))
      throw missingObject(spec.replyTo);
    if (kind === 'TEXT') {
      if (!spec.text)
        throw invalidParameter('(#100) The parameter text is required for TEXT posts');
      return containers.create(owner.id, spec);
    }
    if (kind === 'CAROUSEL') {
      spec.children = required(req.params, 'children').split(',');
      if (spec.children.length < 2 || spec.children.length > 20) {
        throw invalidParameter('(#100) A carousel takes 2 to 20 items');
      }
      const pending = spec.children.some((id) => {
        const child = containers.get(id, owner.id);
        if (!child.spec.carouselItem) throw invalidParameter(`(#100) ${id} is not a carousel item`);
        return child.status !== 'FINISHED';
      });
      return containers.create(owner.id, spec, { pollsLeft: pending ? 1 : 0 });
    }
    if (kind !== 'IMAGE' && kind !== 'VIDEO')
      throw invalidParameter(`(#100) Unknown media_type ${kind}`);
    spec.url = required(req.params, kind === 'IMAGE' ? 'image_url' : 'video_url');
    const { error } = await media(spec);
    return containers.create(owner.id, spec, {
      error,
      pollsLeft: kind === 'VIDEO' ? (options.videoPolls ?? 1) : 0,
    });
  };

  const publish = (req: GraphRequest, owner: Profile) => {
    const container = containers.get(required(req.params, 'creation_id'), owner.id);
    if (container.spec.carouselItem)
      throw invalidParameter('(#100) A carousel item is published with its carousel');
    if (container.status !== 'FINISHED') {
      throw new GraphError(
        400,
        24,
        `(#24) The media container is ${container.status} and cannot be published`,
        {
          subcode: 4279009,
        },
      );
    }
    const items =
      container.spec.kind === 'CAROUSEL'
        ? container.spec.children.map((id) => containers.get(id, owner.id).spec)
        : [container.spec];
    const post: ThreadsPost = {
      id: graphId(),
      owner: owner.id,
      kind: container.spec.kind,
      text: container.spec.text,
      urls: items.flatMap((spec) => (spec.url ? [spec.url] : [])),
      altTexts: items.flatMap((spec) => (spec.url ? [spec.altText] : [])),
      replyTo: container.spec.replyTo,
      permalink: `https://www.threads.net/@${owner.username}/post/${graphId().slice(-11)}`,
    };
    posts.push(post);
    container.status = 'PUBLISHED';
    container.publishedId = post.id;
    return { id: post.id };
  };

  return { containers, posts, create, publish };
}
