import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  COMPRESS_MIN_BYTES,
  compressBody,
  compressible,
  compressStream,
  negotiateEncoding,
  type Encoding,
} from './compression';

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

/** The Node request's headers as fetch Headers (repeated ones joined, as fetch joins them). */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
  return headers;
}

/**
 * The request's body as a web stream, through a stream of its own: a door that stops reading
 * (a refused upload) cancels that one, not the request, whose socket would go with it (a reset
 * the client sees instead of the answer). The listener drains what is left (`settleBody`).
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  const body = new PassThrough();
  req.on('error', (error) => body.destroy(error));
  req.pipe(body);
  return Readable.toWeb(body) as ReadableStream<Uint8Array>;
}

/** The full fetch Request: a streamed body for methods that have one. */
function fullRequest(req: IncomingMessage, url: URL, headers: Headers): Request {
  const method = req.method ?? 'GET';
  return new Request(url, {
    method,
    headers,
    body: hasBody(method) ? bodyOf(req) : undefined,
    // Node's fetch needs this for a streamed request body.
    ...(hasBody(method) && { duplex: 'half' }),
  } as RequestInit);
}

/** Methods a fetch Request cannot carry (Fetch standard, "forbidden method"). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * A Node request as a fetch Request, built only as far as it is read. The method, the URL and
 * the headers are all a GET through the REST door reads; constructing the Request itself (an
 * AbortSignal, a second parse of the URL, checks of every field) cost a small request ≈3 % of
 * its time. Anything else (the body, the signal, `clone()`) builds it on first use.
 */
class NodeRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  #built: Request | undefined;

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly parsedUrl: URL,
  ) {
    this.method = incoming.method ?? 'GET';
    // Refused up front, as the Request constructor would refuse them when built.
    if (FORBIDDEN_METHODS.has(this.method)) throw new TypeError(`${this.method} is not allowed.`);
    this.url = parsedUrl.href;
    this.headers = headersOf(incoming);
  }

  get bodyUsed() {
    return this.#built?.bodyUsed ?? false;
  }

  /** The full Request, built once. */
  built(): Request {
    return (this.#built ??= fullRequest(this.incoming, this.parsedUrl, this.headers));
  }
}

// The rest of Request comes from the full one: its properties, and its methods bound to it.
const BUILT_ON_USE = [
  'body',
  'cache',
  'credentials',
  'destination',
  'integrity',
  'keepalive',
  'mode',
  'redirect',
  'referrer',
  'referrerPolicy',
  'signal',
  'arrayBuffer',
  'blob',
  'bytes',
  'clone',
  'formData',
  'json',
  'text',
] as const;
for (const name of BUILT_ON_USE) {
  Object.defineProperty(NodeRequest.prototype, name, {
    get(this: NodeRequest) {
      const request = this.built();
      const member: unknown = request[name];
      return typeof member === 'function' ? member.bind(request) : member;
    },
  });
}

/**
 * A Node request as a fetch Request, for the fetch-style doors. Throws TypeError on what a
 * Request refuses (a header value, a forbidden method): the caller answers that in the envelope.
 */
export const toRequest = (req: IncomingMessage, url: URL): Request =>
  // Every other member of Request is defined on NodeRequest's prototype above.
  new NodeRequest(req, url) as unknown as Request;

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
 * The most of an unread body the server reads and throws away after answering (a refused
 * upload of any accepted size, 25 MiB by default), so that the connection stays usable.
 */
export const DRAIN_LIMIT = 32 * 1024 * 1024;

/**
 * A request answered before its body was read (415 for an upload's type, 413): the rest is
 * read and dropped, up to `DRAIN_LIMIT`, so that the client reads the answer and may send its
 * next request on the same connection. A body declared longer is not read: the answer says
 * `Connection: close`. Answers whether the connection is to close.
 */
export function settleBody(req: IncomingMessage, limit = DRAIN_LIMIT): boolean {
  if (req.complete || !hasBody(req.method ?? 'GET')) return false;
  if (Number(req.headers['content-length'] ?? 0) > limit) return true;
  let drained = 0;
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    // A body without a length that goes on and on: the connection goes instead.
    if (drained > limit) req.socket.destroy();
  });
  req.resume();
  return false;
}

/**
 * Writes a door's answer to the Node response: a JSON body (every API answer) whole, with its
 * length; any other body streamed. JSON and text are compressed when the client accepts it
 * and the body is worth it (see compression.ts); media bytes never are. An unread rest of the
 * request's body is dealt with first (`settleBody`).
 */
export async function send(res: ServerResponse, response: Answer): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  if (settleBody(res.req)) headers.connection = 'close';
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const encoding =
    compressible(response.headers.get('content-type')) && !response.headers.has('content-encoding')
      ? negotiateEncoding(res.req.headers['accept-encoding'])
      : undefined;
  // The body may be compressed or not depending on Accept-Encoding: caches must know.
  if (compressible(response.headers.get('content-type'))) {
    headers.vary = headers.vary ? `${String(headers.vary)}, Accept-Encoding` : 'Accept-Encoding';
  }
  if (response instanceof JsonAnswer) {
    if (encoding && response.text.length >= COMPRESS_MIN_BYTES) {
      return sendWhole(res, response.status, headers, Buffer.from(response.text), encoding);
    }
    headers['content-length'] = String(Buffer.byteLength(response.text));
    res.writeHead(response.status, headers);
    return void res.end(response.text);
  }
  if (
    response.body &&
    !STREAMED.has(response) &&
    response.headers.get('content-type')?.includes('json')
  ) {
    const body = Buffer.from(await response.arrayBuffer());
    return sendWhole(res, response.status, headers, body, encoding);
  }
  if (!response.body) {
    res.writeHead(response.status, headers);
    return void res.end();
  }
  if (encoding) {
    headers['content-encoding'] = encoding;
    delete headers['content-length'];
    res.writeHead(response.status, headers);
    // pipeline ends the answer, and cancels the body when the client goes (an export stops
    // reading the database), as the loop below does.
    const body = Readable.fromWeb(response.body as NodeReadableStream);
    return pipeline(body, compressStream(encoding), res).catch((error: unknown) => {
      // A client gone is no failure of ours.
      if (!res.destroyed || res.writableFinished) throw error;
    });
  }
  res.writeHead(response.status, headers);
  // At the client's pace: a slow reader holds one chunk here, not the whole body; a reader
  // gone ends the loop, which cancels the body (an export stops reading the database).
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (res.destroyed) break;
    if (!res.write(chunk)) await drainedOrClosed(res);
  }
  res.end();
}

/** A whole body with its length, compressed when it is worth it. */
async function sendWhole(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: Buffer,
  encoding: Encoding | undefined,
) {
  let sent = body;
  if (encoding && body.byteLength >= COMPRESS_MIN_BYTES) {
    sent = await compressBody(body, encoding);
    headers['content-encoding'] = encoding;
  }
  headers['content-length'] = String(sent.byteLength);
  res.writeHead(status, headers);
  res.end(sent);
}

const drainedOrClosed = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/**
 * Responses whose body is a stream to pass on as it comes, though it is JSON (an export):
 * other JSON bodies are read whole first, to send them with a Content-Length.
 */
const STREAMED = new WeakSet<Response>();

/** Marks a JSON response to be streamed to the client rather than read whole first. */
export function streamed(response: Response): Response {
  STREAMED.add(response);
  return response;
}
