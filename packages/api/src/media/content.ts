import { Readable } from 'node:stream';
import {
  AppError,
  findMediaContent,
  findSharedMedia,
  verifySharedLink,
  type MediaContent,
} from '@chorus/services';
import { noneMatch } from '../rest/representation';
import { signedIn, type HandlerContext } from '../rest/routes';
import { requestedRange } from './range';

/**
 * The bytes of a media file. The type is the one detected at upload; `nosniff` and a
 * sandboxing CSP make sure a browser never runs the file as a page. The SHA-256 is a strong
 * ETag. One byte range may be asked for (206), for players that seek.
 */
async function serveBytes(req: Request, { row, open }: MediaContent, headers: Headers) {
  const etag = `"${row.sha256}"`;
  headers.set('ETag', etag);
  // Revalidated on every use: access can be lost, and the record deleted.
  headers.set('Cache-Control', 'private, no-cache');
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Content-Security-Policy', "default-src 'none'; sandbox");
  if (noneMatch(req.headers.get('if-none-match'), etag)) {
    return new Response(null, { status: 304, headers });
  }
  // Players seek in a video by asking for the bytes from where they are.
  headers.set('Accept-Ranges', 'bytes');
  const range =
    req.method === 'GET'
      ? requestedRange(req.headers.get('range'), req.headers.get('if-range'), etag, row.size)
      : undefined;
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${row.size}`);
    throw new AppError(
      'range_not_satisfiable',
      `The range asked for starts past the end of the ${row.size} bytes.`,
      { size: row.size },
    );
  }
  headers.set('Content-Type', row.mimeType);
  headers.set(
    'Content-Disposition',
    `inline; filename*=UTF-8''${encodeURIComponent(row.filename)}`,
  );
  if (range) {
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${row.size}`);
    headers.set('Content-Length', String(range.end - range.start + 1));
    const part = Readable.toWeb(await open(range)) as ReadableStream<Uint8Array>;
    return new Response(part, { status: 206, headers });
  }
  headers.set('Content-Length', String(row.size));
  if (req.method === 'HEAD') return new Response(null, { status: 200, headers });
  const body = Readable.toWeb(await open()) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers });
}

/** `GET /api/content/media/{id}/content`: to callers of the account only (404 to anyone else). */
export async function handleContent(req: Request, id: string, ctx: HandlerContext) {
  const content = await findMediaContent({ ...ctx, principal: signedIn(ctx), id });
  return serveBytes(req, content, ctx.headers);
}

/**
 * `GET /api/content/media/{id}/shared?expires=…&signature=…`: to anyone holding a link the
 * publishing engine made (networks that fetch media by URL), until it expires.
 */
export async function handleShared(req: Request, id: string, ctx: HandlerContext) {
  if (!verifySharedLink(id, new URL(req.url).searchParams)) {
    // As for a deleted file: a link's answer never tells whether its file exists.
    throw new AppError('resource_not_found', 'This link is not valid, or it has expired.');
  }
  return serveBytes(req, await findSharedMedia(ctx.db, ctx.storage, id), ctx.headers);
}
