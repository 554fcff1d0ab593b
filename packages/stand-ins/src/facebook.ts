import { facebookPosts } from './facebook-posts';
import {
  GraphError,
  graphId,
  invalidParameter,
  missingObject,
  required,
  startGraphStandIn,
  text,
  type GraphRequest,
  type GraphParams,
} from './graph';
import type { Fault } from './faults';
import { TokenBook, type TokenEnd } from './graph-tokens';

export type { FacebookPhoto, FacebookPost, FacebookVideo } from './facebook-posts';

/**
 * Facebook Pages on loopback, after the Pages API (https://developers.facebook.com/docs/pages-api):
 * a login's Pages with their own Page tokens (`/me/accounts`), posts to `/{page-id}/feed`,
 * photos to `/{page-id}/photos` (published, or unpublished and attached to a feed post with
 * `attached_media`), videos to `/{page-id}/videos`, comments to `/{object-id}/comments`, and the
 * long-lived token exchange (`fb_exchange_token`).
 */

type Principal = { kind: 'user'; id: string; pages: string[] } | { kind: 'page'; id: string };

interface Page {
  id: string;
  name: string;
  username?: string;
  token: string;
  tasks: string[];
}

export async function startFacebook(options: { app?: { id: string; secret: string } } = {}) {
  const app = options.app ?? { id: 'fb-app', secret: 'fb-secret' };
  const tokens = new TokenBook<Principal>();
  const pages = new Map<string, Page>();
  const { posts, photos, videos, feed, photo, video, owner } = facebookPosts();
  const comments: { id: string; on: string; message: string; fromPage: string }[] = [];
  const engagement = new Map<string, { reactions: number; comments: number; shares: number }>();

  const asPage = (req: GraphRequest, pageId: string) => {
    const principal = tokens.check(req.token);
    if (!pages.has(pageId)) throw missingObject(pageId);
    if (principal.kind !== 'page' || principal.id !== pageId) {
      throw new GraphError(
        403,
        200,
        '(#200) A Page access token is required to publish as the Page',
      );
    }
    return pages.get(pageId) as Page;
  };

  const exchange = (params: GraphParams) => {
    if (text(params, 'client_id') !== app.id || text(params, 'client_secret') !== app.secret) {
      throw new GraphError(400, 1, 'Error validating client secret.');
    }
    const principal = tokens.check(required(params, 'fb_exchange_token'));
    const fresh = `fb-long-${graphId()}`;
    tokens.issue(fresh, principal);
    return { access_token: fresh, token_type: 'bearer', expires_in: 5_183_944 };
  };

  const accounts = (req: GraphRequest) => {
    const principal = tokens.check(req.token);
    if (principal.kind !== 'user')
      throw new GraphError(400, 100, '(#100) Unknown fields: accounts');
    const limit = Math.min(Number(text(req.params, 'limit') ?? 25) || 25, 100);
    const start = Number(Buffer.from(text(req.params, 'after') ?? '', 'base64url').toString() || 0);
    const slice = principal.pages.slice(start, start + limit).map((id) => pages.get(id) as Page);
    const next = start + limit < principal.pages.length;
    return {
      data: slice.map((page) => ({
        id: page.id,
        name: page.name,
        ...(page.username ? { username: page.username } : {}),
        access_token: page.token,
        picture: { data: { url: `https://scontent.example/${page.id}.jpg` } },
        tasks: page.tasks,
      })),
      paging: {
        cursors: {
          before: Buffer.from(String(start)).toString('base64url'),
          after: Buffer.from(String(start + slice.length)).toString('base64url'),
        },
        ...(next ? { next: 'https://graph.facebook.com/v21.0/me/accounts?after=…' } : {}),
      },
    };
  };

  const comment = (req: GraphRequest, objectId: string) => {
    const pageId = owner(objectId);
    if (!pageId) throw missingObject(objectId);
    asPage(req, pageId);
    const message = required(req.params, 'message');
    const id = `${objectId}_${graphId()}`;
    comments.push({ id, on: objectId, message, fromPage: pageId });
    return { id };
  };

  const read = (req: GraphRequest, id: string) => {
    const pageId = owner(id);
    if (!pageId) throw missingObject(id);
    tokens.check(req.token);
    const fields = text(req.params, 'fields') ?? '';
    const isVideo = videos.has(id);
    if (isVideo && /\bshares\b/.test(fields)) {
      throw invalidParameter(
        '(#100) Tried accessing nonexisting field (shares) on node type (Video)',
      );
    }
    const figures = engagement.get(id) ?? { reactions: 0, comments: 0, shares: 0 };
    const count = (n: number) => ({ data: [], summary: { total_count: n } });
    return {
      id,
      permalink_url: isVideo
        ? `/${pageId}/videos/${id}/`
        : `https://www.facebook.com/${pageId}/posts/${id.split('_')[1]}`,
      ...(/\breactions\b/.test(fields) ? { reactions: count(figures.reactions) } : {}),
      ...(/\bcomments\b/.test(fields) ? { comments: count(figures.comments) } : {}),
      ...(figures.shares > 0 && !isVideo ? { shares: { count: figures.shares } } : {}),
      ...(isVideo && /\bstatus\b/.test(fields)
        ? { status: { video_status: videos.get(id)?.status } }
        : {}),
    };
  };

  const standIn = await startGraphStandIn(async (req) => {
    const [first, edge, ...rest] = req.segments;
    const at = `${req.method} ${edge ?? ''}`;
    if (rest.length > 0 || !first) throw new GraphError(400, 2500, 'Unknown path components');
    if (first === 'oauth' && at === 'GET access_token') return { body: exchange(req.params) };
    if (first === 'me' && at === 'GET accounts') return { body: accounts(req) };
    if (at === 'POST feed') return { body: feed(req, asPage(req, first).id) };
    if (at === 'POST photos') return { body: await photo(req, asPage(req, first).id) };
    if (at === 'POST videos') return { body: await video(req, asPage(req, first).id) };
    if (at === 'POST comments') return { body: comment(req, first) };
    if (at === 'GET ') return { body: read(req, first) };
    throw missingObject(first);
  });

  return {
    ...standIn,
    app,
    posts,
    photos,
    videos,
    comments,
    /** A Facebook user whose login holds these Pages (each with its own Page token). */
    addUser(user: {
      token: string;
      id?: string;
      pages: (Omit<Page, 'tasks'> & { tasks?: string[] })[];
    }) {
      const id = user.id ?? graphId();
      for (const page of user.pages) {
        pages.set(page.id, {
          tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'],
          ...page,
        });
        tokens.issue(page.token, { kind: 'page', id: page.id });
      }
      tokens.issue(user.token, { kind: 'user', id, pages: user.pages.map((page) => page.id) });
    },
    /** The token stops working (expired, app removed, password changed…). */
    endToken: (token: string, reason: TokenEnd) => tokens.end(token, reason),
    setEngagement(id: string, figures: { reactions: number; comments: number; shares: number }) {
      engagement.set(id, figures);
    },
  };
}

/** Facebook's throttling answer for the fault switches: a Page over its limit (code 32). */
export const facebookFaults = {
  rateLimited: (pageId: string, minutes = 2): Fault => ({
    kind: 'answer',
    answer: new GraphError(400, 32, 'Page request limit reached', {
      headers: {
        'x-business-use-case-usage': JSON.stringify({
          [pageId]: [
            {
              type: 'pages',
              call_count: 100,
              total_cputime: 20,
              total_time: 30,
              estimated_time_to_regain_access: minutes,
            },
          ],
        }),
      },
    }).answer(),
  }),
};

export type FacebookStandIn = Awaited<ReturnType<typeof startFacebook>>;
