import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD';

/**
 * The origin the client reached: the Host header, and the scheme a proxy in front says
 * (X-Forwarded-Proto), like Next's route handlers see it.
 */
function originOf(req: IncomingMessage): string {
  const proto = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    ?.trim();
  const scheme = proto === 'https' || proto === 'http' ? proto : 'http';
  return `${scheme}://${req.headers.host ?? 'localhost'}`;
}

/**
 * A Node request as a fetch Request, for the fetch-style doors. Throws TypeError on what a URL
 * or a Headers object refuses (a bad Host, say): the caller answers that in the envelope.
 */
export function toRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
  const method = req.method ?? 'GET';
  return new Request(url, {
    method,
    headers,
    body: hasBody(method) ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // Node's fetch needs this for a streamed request body.
    ...(hasBody(method) && { duplex: 'half' }),
  } as RequestInit);
}

/**
 * The request's absolute URL, or null when it has none: a target that is no path (`*`,
 * garbage), a Host that is no host name, or no Host at all in HTTP/1.1 (RFC 9112 §3.2).
 */
export function requestUrl(req: IncomingMessage): URL | null {
  const target = req.url ?? '';
  if (!req.headers.host && req.httpVersion === '1.1') return null;
  try {
    // An absolute-form target (`GET http://host/path`) keeps its own origin, as RFC 9112 says.
    // Concatenated, not resolved: `//x/y` is a path here, not another authority.
    const url = target.startsWith('/') ? new URL(`${originOf(req)}${target}`) : new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The text of the JSON answers made by `jsonResponse`, by answer. */
const jsonTexts = new WeakMap<Response, string>();

/**
 * A JSON answer whose text `send` writes as it is: reading a Response's body back goes through
 * web streams, which cost as much as the rest of a small request.
 */
export function jsonResponse(status: number, text: string, headers: Headers): Response {
  const response = new Response(text, { status, headers });
  jsonTexts.set(response, text);
  return response;
}

/**
 * Writes a fetch Response to the Node response: a JSON body (every API answer) whole, with its
 * length; any other body streamed.
 */
export async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const text = jsonTexts.get(response);
  if (text !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    return void res.end(text);
  }
  if (response.body && response.headers.get('content-type')?.includes('json')) {
    const body = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers);
    return void res.end(body);
  }
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}
