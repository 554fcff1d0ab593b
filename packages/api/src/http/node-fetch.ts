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

/**
 * A door's JSON answer before it is a fetch Response. The Node listener writes its text as it
 * is: `new Response(text)` would first copy the text into a web stream, which costs as much as
 * the rest of a small request (≈90 µs for a page of 50 users). Fetch callers get `toResponse`.
 */
export class JsonAnswer {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly text: string,
  ) {}
}

/** What a door answers: a JSON answer, or a Response (streams, redirects, empty bodies). */
export type Answer = Response | JsonAnswer;

export const toResponse = (answer: Answer): Response =>
  answer instanceof JsonAnswer
    ? new Response(answer.text, { status: answer.status, headers: answer.headers })
    : answer;

/**
 * Writes a door's answer to the Node response: a JSON body (every API answer) whole, with its
 * length; any other body streamed.
 */
export async function send(res: ServerResponse, response: Answer): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (response instanceof JsonAnswer) {
    headers['content-length'] = String(Buffer.byteLength(response.text));
    res.writeHead(response.status, headers);
    return void res.end(response.text);
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
