import { readdir } from 'node:fs/promises';
import { count, eq, events, media } from '@chorus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import {
  EXE,
  FIXTURES,
  fetchContent,
  fixture,
  pngDeclaring,
  sha256,
  upload,
} from './media-fixtures';

const LIMIT = 100_000;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ maxUploadBytes: LIMIT });
});
afterAll(() => h.close());

/** Every file in storage (temporary ones included). */
const storedFiles = async () =>
  (await readdir(h.storageDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
const mediaCount = async () => (await h.db.select({ n: count() }).from(media))[0]?.n ?? 0;
const eventCount = async (type: string) =>
  (await h.db.select({ n: count() }).from(events).where(eq(events.type, type)))[0]?.n ?? 0;

/** Runs `act` and asserts that it left no record, no event and no bytes behind. */
async function leavesNothing(act: () => Promise<unknown>) {
  const before = {
    files: (await storedFiles()).length,
    rows: await mediaCount(),
    events: await eventCount('media.uploaded'),
  };
  await act();
  expect((await storedFiles()).length).toBe(before.files);
  expect(await mediaCount()).toBe(before.rows);
  expect(await eventCount('media.uploaded')).toBe(before.events);
}

describe('POST /api/content/media', () => {
  it.each(FIXTURES)(
    'accepts $file: type from the bytes, size, sha256, dimensions, url',
    async (f) => {
      const { status, json } = await upload(h, f.bytes, {
        filename: f.file,
        altText: `A ${f.file}`,
      });
      expect(status).toBe(201);
      expect(json.success).toBe(true);
      const data = json.data;
      expect(Object.keys(data).sort()).toEqual([
        'altText',
        'createdAt',
        'filename',
        'height',
        'id',
        'mimeType',
        'sha256',
        'size',
        'uploadedBy',
        'url',
        'width',
      ]);
      expect(data).toMatchObject({
        filename: f.file,
        mimeType: f.mimeType,
        size: f.bytes.length,
        sha256: sha256(f.bytes),
        width: f.width,
        height: f.height,
        altText: `A ${f.file}`,
        uploadedBy: h.main.adminId,
      });
      expect(data.id).toMatch(/^med_[0-9A-Z]{26}$/);
      expect(data.url).toBe(`http://localhost:3000/api/content/media/${data.id}/content`);
      const served = await fetchContent(h, data.id);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(f.mimeType);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.bytes.equals(f.bytes)).toBe(true);
    },
  );

  it('writes media.uploaded with the record as the API returned it', async () => {
    const { json } = await upload(h, fixture('pixel.png'), { filename: 'event.png' });
    const rows = await h.db.select().from(events).where(eq(events.type, 'media.uploaded'));
    const mine = rows.find(
      (row) => (row.payload.data.object as { id: string }).id === json.data.id,
    );
    expect(mine?.payload.data.object).toEqual(json.data);
    expect(mine?.accountId).toBe(h.main.accountId);
  });

  it('refuses a renamed .exe with 415, whatever its name and part type say, keeping nothing', async () => {
    await leavesNothing(async () => {
      const { status, json } = await upload(h, EXE, { filename: 'holiday.png', type: 'image/png' });
      expect(status).toBe(415);
      expect(json.error.code).toBe('unsupported_media_type');
      expect(json.error.message).toContain('application/x-msdownload');
    });
  });

  it('refuses text, and an image whose header is damaged, with 415', async () => {
    await leavesNothing(async () => {
      expect((await upload(h, Buffer.from('just text'), { filename: 'a.jpg' })).status).toBe(415);
      const png = fixture('pixel.png');
      const damaged = Buffer.concat([png.subarray(0, 8), Buffer.alloc(40, 0xff)]);
      expect((await upload(h, damaged, { filename: 'b.png' })).status).toBe(415);
      // Cut off inside its size fields: damaged, not an image declaring 0 pixels.
      for (const end of [16, 20, 23]) {
        const cut = await upload(h, png.subarray(0, end), { filename: 'c.png' });
        expect(cut.status, `${end} bytes`).toBe(415);
        expect(cut.json.error.message).toBe('The image is damaged: its size cannot be read.');
      }
    });
  });

  it('refuses an image declaring 0xFFFFFFFF or 0 pixels on a side with 400 on file, keeping nothing', async () => {
    await leavesNothing(async () => {
      for (const [width, height] of [
        [0xffffffff, 9],
        [16, 0xffffffff],
        [65_536, 1],
        [0, 9],
      ] as const) {
        const res = await upload(h, pngDeclaring(width, height), { filename: 'huge.png' });
        expect(res.status, `${width} × ${height}`).toBe(400);
        const { error } = res.json;
        expect(error.code).toBe('validation_error');
        expect(error.details.issues[0]).toMatchObject({ path: 'file' });
        expect(error.message).toContain(`${width} × ${height} pixels`);
      }
    });
    // Up to 65,535 per side is an image like any other.
    const widest = await upload(h, pngDeclaring(65_535, 1), { filename: 'wide.png' });
    expect(widest.status).toBe(201);
    expect(widest.json.data).toMatchObject({ width: 65_535, height: 1 });
  });

  it('refuses a file over the limit with 413 while streaming, leaving no record, bytes or event', async () => {
    const big = Buffer.concat([fixture('pixel.png'), Buffer.alloc(LIMIT)]);
    await leavesNothing(async () => {
      const { status, json } = await upload(h, big, { filename: 'big.png' });
      expect(status).toBe(413);
      expect(json.error).toMatchObject({ code: 'payload_too_large', details: { limit: LIMIT } });
    });
  });

  it('accepts a file of exactly the limit', async () => {
    const png = fixture('pixel.png');
    const exact = Buffer.concat([png, Buffer.alloc(LIMIT - png.length)]);
    const { status, json } = await upload(h, exact, { filename: 'exact.png' });
    expect(status).toBe(201);
    expect(json.data.size).toBe(LIMIT);
  });

  it('refuses a declared Content-Length far over the limit before reading the body', async () => {
    const res = await h.handle(
      new Request('http://localhost:3000/api/content/media', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.main.token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(LIMIT * 10),
        },
      }),
    );
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({
      code: 'payload_too_large',
      details: { limit: LIMIT },
    });
  });

  it('refuses a chunked body past the limit with the same 413, details.limit included', async () => {
    // Without a Content-Length; the bytes past the cap are outside the file part, so the
    // count of the body, not of the file, is what refuses it.
    const head = `${'a'.repeat(LIMIT + 300_000)}\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const form = Buffer.concat([
      Buffer.from(head),
      fixture('pixel.png'),
      Buffer.from('\r\n--x--\r\n'),
    ]);
    await leavesNothing(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < form.length; at += 16_384)
            controller.enqueue(form.subarray(at, at + 16_384));
          controller.close();
        },
      });
      const res = await h.handle(
        new Request('http://localhost:3000/api/content/media', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${h.main.token}`,
            'content-type': 'multipart/form-data; boundary=x',
          },
          body,
          duplex: 'half',
        } as RequestInit),
      );
      const answer = await res.json();
      expect(res.status, JSON.stringify(answer)).toBe(413);
      expect(answer.error).toMatchObject({
        code: 'payload_too_large',
        details: { limit: LIMIT },
      });
    });
  });

  it('refuses multipart/form-data without a boundary as malformed (400 on file), not 415', async () => {
    for (const contentType of ['multipart/form-data', 'multipart/form-data; charset=utf-8']) {
      const res = await h.call('POST', '/api/content/media', { raw: '--x--', contentType });
      expect(res.status, contentType).toBe(400);
      expect(res.json.error.code).toBe('validation_error');
      expect(res.json.error.message).toContain('boundary');
      expect(res.json.error.details.issues[0].path).toBe('file');
    }
  });

  it('needs multipart/form-data with exactly one file part', async () => {
    await leavesNothing(async () => {
      const json = await h.call('POST', '/api/content/media', { body: { file: 'x' } });
      expect(json.status).toBe(415);
      const none = await upload(h, fixture('pixel.png'), {
        extra: (form) => form.delete('file'),
      });
      expect(none.status).toBe(400);
      expect(none.json.error.details.issues[0].path).toBe('file');
      const two = await upload(h, fixture('pixel.png'), {
        extra: (form) => form.append('file', new Blob([fixture('pic.gif')]), 'second.gif'),
      });
      expect(two.status).toBe(400);
      expect(two.json.error.details.issues[0].path).toBe('file');
    });
  });

  it('refuses alt text over 1,000 characters with validation_error naming altText, keeping nothing', async () => {
    await leavesNothing(async () => {
      const { status, json } = await upload(h, fixture('pixel.png'), { altText: 'a'.repeat(1001) });
      expect(status).toBe(400);
      expect(json.error.details.issues).toEqual([{ path: 'altText', message: expect.any(String) }]);
    });
  });

  it('keeps only the base name of the file, in any script', async () => {
    const { json } = await upload(h, fixture('pixel.png'), { filename: '..\\..\\etc/passwd.png' });
    expect(json.data.filename).toBe('passwd.png');
    const unicode = await upload(h, fixture('pixel.png'), { filename: 'été 😀.png' });
    expect(unicode.json.data.filename).toBe('été 😀.png');
  });

  it('names a file part sent with an empty name (filename="") upload.<type>', async () => {
    for (const type of ['image/png', 'text/plain']) {
      // As curl -F 'file=@pixel.png;filename=""' sends it (fetch's FormData leaves the name out).
      const body = Buffer.concat([
        Buffer.from(
          `--b\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        fixture('pixel.png'),
        Buffer.from('\r\n--b--\r\n'),
      ]);
      const res = await h.handle(
        new Request('http://localhost:3000/api/content/media', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${h.main.token}`,
            'content-type': 'multipart/form-data; boundary=b',
          },
          body,
        }),
      );
      const json = (await res.json()) as { data: unknown };
      expect(res.status, type).toBe(201);
      expect(json.data).toMatchObject({ filename: 'upload.png', mimeType: 'image/png' });
    }
  });

  it('answers a retry with the same Idempotency-Key with the first answer, keeping one copy', async () => {
    const headers = { 'Idempotency-Key': 'upload-once' };
    const first = await upload(h, fixture('photo.jpg'), { filename: 'once.jpg', headers });
    expect(first.status).toBe(201);
    const filesAfterFirst = (await storedFiles()).length;
    const rowsAfterFirst = await mediaCount();
    const retry = await upload(h, fixture('photo.jpg'), { filename: 'once.jpg', headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json).toEqual(first.json);
    expect(await mediaCount()).toBe(rowsAfterFirst);
    expect((await storedFiles()).length).toBe(filesAfterFirst);
    const other = await upload(h, fixture('pic.gif'), { filename: 'once.jpg', headers });
    expect(other.status).toBe(400);
    expect(other.json.error.code).toBe('idempotency_key_reused');
    expect((await storedFiles()).length).toBe(filesAfterFirst);
  });
});
