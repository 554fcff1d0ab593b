/**
 * openapi-typescript's types (with the Blob transform its documentation gives for
 * `format: binary`) and an openapi-fetch program, compiled by tsc without a cast, then run
 * against the server on loopback: lists posts, creates one, uploads a Blob, reads an error's
 * typed code.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProgram } from './compile-program';
import { startHarness, type Harness } from './harness';
import { serveOnLoopback } from './http-server';
import { fixture } from './media-fixtures';

const dir = fileURLToPath(new URL('../.cache/openapi-fetch-client/', import.meta.url));

const PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function exercise(baseUrl: string, token: string, file: Blob) {
  const chorus = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${token}\` } });
  const listed = await chorus.GET('/api/content/posts', { params: { query: { limit: 1 } } });
  const total: number | undefined = listed.data?.meta.pagination.total;
  const created = await chorus.POST('/api/content/posts', {
    body: { title: 'From openapi-fetch', content: 'Hello' },
  });
  const postId: string | undefined = created.data?.data.id;
  const uploaded = await chorus.POST('/api/content/media', {
    body: { file, altText: 'From openapi-fetch' },
    bodySerializer(body) {
      const form = new FormData();
      form.append('file', body.file);
      if (body.altText !== undefined) form.append('altText', body.altText);
      return form;
    },
  });
  const mediaId: string | undefined = uploaded.data?.data.id;
  const missing = await chorus.GET('/api/content/posts/{id}', {
    params: { path: { id: 'post_unknown' } },
  });
  const code = missing.error?.error.code;
  return { total, postId, mediaId, code, status: missing.response.status };
}
`;

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull());

let h: Harness;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
beforeAll(async () => {
  h = await startHarness();
  server = await serveOnLoopback(h.handle);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});

describe('an openapi-fetch client on openapi-typescript types', () => {
  it('compiles without a cast; lists, creates, uploads a Blob and types an error', async () => {
    const document = await (await fetch(`${server.base}/api/openapi.json`)).text();
    const ast = await openapiTS(document, {
      transform(schema) {
        if (schema.format !== 'binary') return undefined;
        return 'nullable' in schema && schema.nullable
          ? ts.factory.createUnionTypeNode([BLOB, NULL])
          : BLOB;
      },
    });
    await writeFile(`${dir}schema.d.ts`, astToString(ast));
    expect(await compileProgram(dir, PROGRAM)).toBe('');

    const program = (await import(`${dir}program.ts`)) as {
      exercise(base: string, token: string, file: Blob): Promise<Record<string, unknown>>;
    };
    const png = new Blob([new Uint8Array(fixture('pixel.png'))], { type: 'image/png' });
    const outcome = await program.exercise(server.base, h.main.token, png);
    expect(outcome).toEqual({
      total: expect.any(Number),
      postId: expect.stringMatching(/^post_/),
      mediaId: expect.stringMatching(/^med_/),
      code: 'resource_not_found',
      status: 404,
    });
    const media = await h.call('GET', `/api/content/media/${String(outcome.mediaId)}`);
    expect(media.json.data).toMatchObject({ mimeType: 'image/png', altText: 'From openapi-fetch' });
  }, 180_000);
});
