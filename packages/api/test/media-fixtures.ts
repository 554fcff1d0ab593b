import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Harness } from './harness';

const dir = new URL('./fixtures/', import.meta.url);

/** Small real files of each accepted type, made with ImageMagick, ffmpeg and by hand (PDF). */
export const FIXTURES = [
  { file: 'photo.jpg', mimeType: 'image/jpeg', width: 40, height: 30 },
  { file: 'pixel.png', mimeType: 'image/png', width: 16, height: 9 },
  { file: 'pic.gif', mimeType: 'image/gif', width: 12, height: 10 },
  { file: 'pic.webp', mimeType: 'image/webp', width: 20, height: 15 },
  { file: 'clip.mp4', mimeType: 'video/mp4', width: null, height: null },
  { file: 'doc.pdf', mimeType: 'application/pdf', width: null, height: null },
].map((fixture) => ({ ...fixture, bytes: readFileSync(new URL(fixture.file, dir)) }));

export const fixture = (name: string) => {
  const found = FIXTURES.find((f) => f.file === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found.bytes;
};

/** A Windows executable's first bytes (the MZ and PE signatures), whatever its name says. */
export const EXE = Buffer.concat([
  Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00', 'latin1'),
  Buffer.alloc(44),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.alloc(64),
  Buffer.from('PE\x00\x00', 'latin1'),
  Buffer.alloc(200),
]);

/**
 * The fixture PNG with its header (IHDR) claiming another size: 0xFFFFFFFF wide fits the
 * format. The checksum is left stale, as a hostile client would: no reader checks it here.
 */
export function pngDeclaring(width: number, height: number) {
  const png = Buffer.from(fixture('pixel.png'));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface UploadOptions {
  token?: string | null;
  filename?: string;
  /** The part's declared type: ignored by the server, which reads the bytes. */
  type?: string;
  altText?: string;
  headers?: Record<string, string>;
  /** Extra parts, appended after the file. */
  extra?: (form: FormData) => void;
  handler?: (req: Request) => Promise<Response>;
}

/** `POST /api/content/media` with a real multipart body, as a browser or curl -F sends it. */
export async function upload(h: Harness, bytes: Buffer, options: UploadOptions = {}) {
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: options.type ?? 'application/octet-stream' }),
    options.filename ?? 'upload.bin',
  );
  if (options.altText !== undefined) form.append('altText', options.altText);
  options.extra?.(form);
  const headers = new Headers(options.headers);
  const token = options.token === undefined ? h.main.token : options.token;
  if (token) headers.set('authorization', `Bearer ${token}`);
  const req = new Request('http://localhost:3000/api/content/media', {
    method: 'POST',
    headers,
    body: form,
  });
  const res = await (options.handler ?? h.handle)(req);
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

/** GET (or HEAD) a media item's bytes. */
export async function fetchContent(
  h: Harness,
  id: string,
  options: {
    token?: string | null;
    method?: string;
    headers?: Record<string, string>;
    handler?: (req: Request) => Promise<Response>;
  } = {},
) {
  const headers = new Headers(options.headers);
  const token = options.token === undefined ? h.main.token : options.token;
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await (options.handler ?? h.handle)(
    new Request(`http://localhost:3000/api/content/media/${id}/content`, {
      method: options.method ?? 'GET',
      headers,
    }),
  );
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
