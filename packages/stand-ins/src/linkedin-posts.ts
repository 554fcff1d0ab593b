import type { Answer } from './faults';
import {
  liError,
  memberWith,
  objectField,
  unprocessable,
  type LinkedInContext,
} from './linkedin-errors';
import { renderLittleText } from './linkedin-little-text';
import { nextNumber, type LinkedInPost, type MediaKind } from './linkedin-world';
import type { RouteEntry } from './routes';

/**
 * The Posts API (`POST /rest/posts`, the new post's URN in `x-restli-id`) and comments
 * (`POST /rest/socialActions/{urn}/comments`), with the checks LinkedIn makes: who may post as
 * the author, required fields, 3,000 characters of escaped little text, media that is the
 * author's and AVAILABLE, a multiImage of 2 to 20 images, duplicates, the daily member limit.
 */

export interface LinkedInPostLimits {
  maxCommentary: number;
  maxComment: number;
  /** Posts one member may create a day (LinkedIn's member limit on shares is 150). */
  postsPerDay: number;
}

const VISIBILITY = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'];
const DAY_MS = 86_400_000;
const required = (path: string) =>
  unprocessable(path, 'field is required but not found and has no default value');
const length = (text: string) => [...text].length;

/** `content` refers only to the author's assets of the right kinds, processed. */
function contentProblem(ctx: LinkedInContext, author: string, content: Record<string, unknown>) {
  const usable = (id: unknown, kinds: MediaKind[], path: string): Answer | undefined => {
    const upload = ctx.world.uploads.get(String(id));
    if (!upload || !kinds.includes(upload.kind) || upload.owner !== author) {
      return unprocessable(path, `${String(id)} is not an asset of ${author}`);
    }
    if (upload.status !== 'AVAILABLE') {
      return unprocessable(path, `${upload.urn} is ${upload.status}, not AVAILABLE`);
    }
    return undefined;
  };
  const media = objectField(content.media);
  if (media) {
    const problem = usable(media.id, ['image', 'video', 'document'], '/content/media/id');
    if (problem) return problem;
    const kind = ctx.world.uploads.get(String(media.id))?.kind;
    return kind === 'document' && typeof media.title !== 'string'
      ? required('/content/media/title')
      : undefined;
  }
  const images = objectField(content.multiImage)?.images;
  if (!Array.isArray(images))
    return unprocessable('/content', 'one of media or multiImage is required');
  if (images.length < 2 || images.length > 20) {
    return unprocessable(
      '/content/multiImage/images',
      `a multiImage has 2 to 20 images, got ${images.length}`,
    );
  }
  for (const [index, image] of images.entries()) {
    const problem = usable(
      objectField(image)?.id,
      ['image'],
      `/content/multiImage/images/${index}/id`,
    );
    if (problem) return problem;
  }
  return undefined;
}

function createPost(ctx: LinkedInContext, limits: LinkedInPostLimits): Answer {
  const body = ctx.json;
  if (!body) return liError(400, 'ILLEGAL_ARGUMENT', 'The request body must be JSON');
  const author = body.author;
  if (typeof author !== 'string' || !/^urn:li:(person|organization):\S+$/.test(author))
    return required('/author');
  const scope = author.startsWith('urn:li:organization:')
    ? 'w_organization_social'
    : 'w_member_social';
  const member = memberWith(ctx, [scope], 'partnerApiPostsExternal.CREATE');
  if (typeof member !== 'string') return member;
  if (!ctx.world.mayActAs(member, author)) {
    return liError(403, 'ACCESS_DENIED', `Member is not permitted to create a post as ${author}`);
  }
  for (const field of ['visibility', 'distribution', 'lifecycleState']) {
    if (body[field] === undefined) return required(`/${field}`);
  }
  if (!VISIBILITY.includes(String(body.visibility)))
    return unprocessable('/visibility', `${String(body.visibility)} is not a valid value`);
  if (body.lifecycleState !== 'PUBLISHED')
    return unprocessable('/lifecycleState', 'only PUBLISHED posts can be created');
  const commentary = typeof body.commentary === 'string' ? body.commentary : '';
  const rendered = renderLittleText(commentary);
  if ('unescapedAt' in rendered) {
    return unprocessable(
      '/commentary',
      `reserved character '${commentary.charAt(rendered.unescapedAt)}' at ${rendered.unescapedAt} must be escaped with a backslash`,
    );
  }
  // The limit is on the text readers see, escapes and templates rendered.
  if (length(rendered.text) > limits.maxCommentary) {
    return unprocessable(
      '/commentary',
      `length ${length(rendered.text)} exceeds the maximum of ${limits.maxCommentary} characters`,
    );
  }
  const content = objectField(body.content);
  const problem = content ? contentProblem(ctx, author, content) : undefined;
  if (problem) return problem;
  const now = Date.now();
  if (ctx.world.postedSince(author, now - DAY_MS) >= limits.postsPerDay) {
    return liError(
      429,
      'TOO_MANY_REQUESTS',
      'Resource level throttle MEMBER DAY limit for calls to this resource is reached.',
      101,
    );
  }
  // LinkedIn refuses the same content from the same author again.
  const contentKey = `${author}\n${commentary}\n${JSON.stringify(content ?? null)}`;
  const duplicate = ctx.world.byContent.get(contentKey);
  if (duplicate && duplicate.createdAt > now - DAY_MS) {
    return liError(422, 'DUPLICATE_POST', `Content is a duplicate of ${duplicate.urn}`);
  }
  const post: LinkedInPost = {
    urn: `urn:li:share:${nextNumber()}`,
    author,
    commentary,
    text: rendered.text,
    visibility: String(body.visibility),
    content: (content as LinkedInPost['content']) ?? null,
    createdAt: now,
    likes: 0,
    comments: [],
    shares: 0,
    impressions: 0,
    clicks: 0,
  };
  ctx.world.addPost(post, contentKey);
  return {
    status: 201,
    headers: { 'x-restli-id': post.urn, location: `/rest/posts/${encodeURIComponent(post.urn)}` },
  };
}

function createComment(ctx: LinkedInContext, target: string, limits: LinkedInPostLimits): Answer {
  const post = ctx.world.posts.get(target);
  if (!post) return liError(404, 'NOT_FOUND', `Post ${target} not found`);
  const actor = ctx.json?.actor;
  const text = objectField(ctx.json?.message)?.text;
  if (typeof actor !== 'string') return required('/actor');
  if (typeof text !== 'string' || text === '') return required('/message/text');
  if (ctx.json?.object !== undefined && ctx.json.object !== target)
    return unprocessable('/object', 'must be the post commented on');
  const scope = actor.startsWith('urn:li:organization:')
    ? 'w_organization_social'
    : 'w_member_social';
  const member = memberWith(ctx, [scope], 'partnerApiSocialActions.CREATE');
  if (typeof member !== 'string') return member;
  if (!ctx.world.mayActAs(member, actor))
    return liError(403, 'ACCESS_DENIED', `Member is not permitted to comment as ${actor}`);
  if (length(text) > limits.maxComment)
    return unprocessable(
      '/message/text',
      `length ${length(text)} exceeds the maximum of ${limits.maxComment} characters`,
    );
  const id = nextNumber();
  const urn = `urn:li:comment:(${target.replace(/^urn:li:(share|ugcPost)/, 'urn:li:activity')},${id})`;
  post.comments.push({ urn, actor, text });
  return {
    status: 201,
    headers: { 'x-restli-id': urn },
    body: { id, $URN: urn, actor, object: target, message: { text } },
  };
}

export function linkedinPostRoutes(limits: LinkedInPostLimits): RouteEntry<LinkedInContext>[] {
  return [
    ['POST', /^\/rest\/posts$/, (ctx) => createPost(ctx, limits)],
    [
      'POST',
      /^\/rest\/socialActions\/([^/]+)\/comments$/,
      (ctx, match) => createComment(ctx, decodeURIComponent(match[1] ?? ''), limits),
    ],
  ];
}
