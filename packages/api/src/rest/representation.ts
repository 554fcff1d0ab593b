import { createHash } from 'node:crypto';
import { JsonAnswer, type Answer } from '../server/node-fetch';
import type { RouteTable } from './routes';

/** RFC 9110 §13.1.2: does If-None-Match name this ETag (or any)? Weak comparison. */
export const noneMatch = (header: string | null, etag: string) =>
  header !== null &&
  header
    .split(',')
    .some((tag) => ['*', etag.replace(/^W\//, '')].includes(tag.trim().replace(/^W\//, '')));

/**
 * A weak ETag of a JSON answer's text: the same for the same representation, whatever its
 * compression on the wire (weak, since the bytes sent differ between encodings).
 */
const weakEtag = (text: string) => `W/"${createHash('sha1').update(text).digest('base64url')}"`;

/**
 * A 200 JSON answer to a GET (or HEAD) gets an ETag; a request whose If-None-Match names it
 * gets 304 with no body, and the client reuses what it has.
 */
export function withEtag(req: Request, answer: Answer): Answer {
  if (!(answer instanceof JsonAnswer) || answer.status !== 200) return answer;
  if (req.method !== 'GET' && req.method !== 'HEAD') return answer;
  const etag = weakEtag(answer.text);
  answer.headers.set('ETag', etag);
  if (!noneMatch(req.headers.get('if-none-match'), etag)) return answer;
  answer.headers.delete('Content-Type');
  return new Response(null, { status: 304, headers: answer.headers });
}

/**
 * A 201 says where the created resource can be read (`Location`): the path of the request
 * with the new `id`, when a GET is served there (`POST /api/users` → `/api/users/{id}`).
 */
export function withLocation(routes: RouteTable, path: string, answer: Answer): Answer {
  if (!(answer instanceof JsonAnswer) || answer.status !== 201) return answer;
  if (answer.headers.has('Location')) return answer;
  let id: unknown;
  try {
    // In the envelope's `data`, or the resource itself (a user).
    const body = JSON.parse(answer.text) as { id?: unknown; data?: { id?: unknown } } | null;
    id = body?.data?.id ?? body?.id;
  } catch {
    return answer;
  }
  if (typeof id !== 'string' || id === '') return answer;
  const location = `${path}/${encodeURIComponent(id)}`;
  const match = routes.match('GET', location);
  if (match && 'route' in match) answer.headers.set('Location', location);
  return answer;
}
