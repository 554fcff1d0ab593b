import type { IncomingMessage } from 'node:http';

/**
 * A request's parameters whatever its encoding, as Rails-style APIs read them: JSON as sent;
 * urlencoded and multipart forms with `name[]` keys collected into arrays under `name`, and
 * files as `File`s. Null-prototype, so a client's `__proto__` key is only a key.
 */
export type Params = Record<string, unknown>;

function collect(entries: Iterable<[string, unknown]>): Params {
  const params: Params = Object.create(null);
  for (const [key, value] of entries) {
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const list = Array.isArray(params[name]) ? (params[name] as unknown[]) : [];
      list.push(value);
      params[name] = list;
    } else {
      params[key] = value;
    }
  }
  return params;
}

/**
 * The parts of a multipart/form-data body. A part with a file name or a non-text type is a
 * `File` with its bytes as sent (uploads send raw binary parts without a file name, which a
 * spec-following FormData parser would decode as text).
 */
function multipartEntries(body: Buffer, boundary: string): [string, string | File][] {
  const delimiter = Buffer.from(`--${boundary}`);
  const entries: [string, string | File][] = [];
  let at = body.indexOf(delimiter);
  while (
    at !== -1 &&
    body.subarray(at + delimiter.length, at + delimiter.length + 2).toString() !== '--'
  ) {
    const start = at + delimiter.length + 2;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString('utf8');
    const content = part.subarray(split + 4);
    const name = /;\s*name="([^"]*)"/i.exec(headers)?.[1];
    const filename = /;\s*filename="([^"]*)"/i.exec(headers)?.[1];
    const type = /^content-type:\s*([^\r\n]+)/im.exec(headers)?.[1]?.trim();
    if (split !== -1 && name !== undefined) {
      const isFile = filename !== undefined || (type !== undefined && !type.startsWith('text/'));
      entries.push([
        name,
        isFile
          ? new File([new Uint8Array(content)], filename ?? 'blob', {
              type: type ?? 'application/octet-stream',
            })
          : content.toString('utf8'),
      ]);
    }
    at = next;
  }
  return entries;
}

/** Undefined when the body is not in a form the route can read (the caller answers 400/415). */
export async function readParams(req: IncomingMessage, body: Buffer): Promise<Params | undefined> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (body.length === 0) return Object.create(null) as Params;
  try {
    if (type.startsWith('application/json')) {
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
      return collect(Object.entries(parsed));
    }
    if (type.startsWith('application/x-www-form-urlencoded')) {
      return collect(new URLSearchParams(body.toString('utf8')));
    }
    if (type.startsWith('multipart/form-data')) {
      const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.headers['content-type'] ?? '');
      const delimiter = boundary?.[1] ?? boundary?.[2];
      return delimiter ? collect(multipartEntries(body, delimiter)) : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

export const stringParam = (params: Params, name: string) =>
  typeof params[name] === 'string' ? (params[name] as string) : undefined;

export const fileParam = (params: Params, name: string) =>
  params[name] instanceof File ? (params[name] as File) : undefined;

/** The bearer token of an `Authorization` header, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** HTTP Basic credentials (RFC 6749 §2.3.1: each part form-urlencoded), if any. */
export function basicCredentials(req: IncomingMessage): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return undefined;
  const [id = '', secret = ''] = Buffer.from(match[1], 'base64').toString('utf8').split(':');
  return { id: decodeURIComponent(id), secret: decodeURIComponent(secret) };
}
