import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SINGLE_LINE_MESSAGE } from '@chorus/validators';
import { startHarness, type Harness } from './harness';

let h: Harness;
let doc: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  h = await startHarness();
  const { status, json } = await h.call('GET', '/api/openapi.json', {
    token: null,
    origin: 'https://api.example.com',
  });
  expect(status).toBe(200);
  doc = json;
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
});
afterAll(() => h.close());

/** The schema the document gives for a response, with its $refs resolved against the document. */
function responseSchema(path: string, method: string, status: number) {
  const response = doc.paths[path]?.[method]?.responses?.[String(status)];
  expect(response, `${method.toUpperCase()} ${path} documents ${status}`).toBeDefined();
  const schema = response.content?.['application/json']?.schema;
  return (
    schema && JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'))
  );
}

/** Asserts that a real response is described by the document: status listed, body matching. */
async function conforms(
  method: string,
  path: string,
  template: string,
  options: Parameters<Harness['call']>[2] = {},
) {
  const { status, json } = await h.call(method.toUpperCase(), path, options);
  const schema = responseSchema(template, method, status);
  if (status === 204) {
    expect(json).toBeUndefined();
    return status;
  }
  const validate = ajv.compile(schema);
  expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
  return status;
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('names the server the caller reached and the bearer security scheme', () => {
    expect(doc.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('describes the OAuth 2.0 scheme beside it, and which scopes each operation needs', () => {
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: 'https://api.example.com/oauth/authorize',
          tokenUrl: 'https://api.example.com/oauth/token',
          refreshUrl: 'https://api.example.com/oauth/token',
        },
      },
    });
    expect(
      Object.keys(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes),
    ).toEqual([
      'read',
      'write',
      'content:read',
      'content:write',
      'analytics:read',
      'analytics:write',
    ]);
    expect(doc.paths['/api/users'].get.security).toEqual([
      { bearerAuth: [] },
      { oauth2: ['read'] },
    ]);
    expect(doc.paths['/api/users'].post.security).toEqual([
      { bearerAuth: [] },
      { oauth2: ['write'] },
    ]);
  });

  it('describes every users operation at the spec’s paths', () => {
    expect(Object.keys(doc.paths['/api/users']).sort()).toEqual(['get', 'post']);
    // One parameter name per templated path (OpenAPI 3.1): the spec's `{id}` of PUT is `{userId}`.
    expect(Object.keys(doc.paths['/api/users/{userId}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(doc.paths['/api/users/{id}']).toBeUndefined();
  });

  it('describes every query parameter of every operation', () => {
    type Parameter = {
      in: string;
      name: string;
      description?: string;
      schema?: { description?: string };
    };
    const bare: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths as Record<string, object>)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const p of (operation as { parameters?: Parameter[] }).parameters ?? []) {
          if (p.in === 'query' && !(p.description ?? p.schema?.description)) {
            bare.push(`${method.toUpperCase()} ${path} ?${p.name}`);
          }
        }
      }
    }
    expect(bare).toEqual([]);
  });

  it('gives every list 25 items a page by default, the users list 50 (the spec’s Limits)', () => {
    type Parameter = { in: string; name: string; schema?: { default?: unknown } };
    const defaults: Record<string, unknown> = {};
    for (const [path, operations] of Object.entries(doc.paths as Record<string, object>)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const p of (operation as { parameters?: Parameter[] }).parameters ?? []) {
          if (p.in === 'query' && p.name === 'limit') {
            defaults[`${method.toUpperCase()} ${path}`] = p.schema?.default;
          }
        }
      }
    }
    expect(Object.keys(defaults).length).toBeGreaterThan(5);
    const { 'GET /api/users': users, ...others } = defaults;
    expect(users).toBe(50);
    expect(Object.entries(others).filter(([, value]) => value !== 25)).toEqual([]);
  });

  it('lists the posts list’s bounds on createdAt and on the publishing times, each inclusive', () => {
    type Parameter = {
      in: string;
      name: string;
      schema: { description?: string; anyOf?: { format?: string }[] };
    };
    const parameters = doc.paths['/api/content/posts'].get.parameters as Parameter[];
    const bounds = ['from', 'to', 'scheduledFrom', 'scheduledTo', 'publishedFrom', 'publishedTo'];
    for (const name of bounds) {
      const parameter = parameters.find((p) => p.name === name);
      expect(parameter?.in, name).toBe('query');
      // A date (the whole UTC day) or a timestamp, and the description says which day means what.
      expect(
        parameter?.schema.anyOf?.map((s) => s.format),
        name,
      ).toEqual(['date', 'date-time']);
      const day = name.endsWith('o') ? 'through its last instant' : 'from its first instant';
      expect(parameter?.schema.description, name).toContain(`the whole UTC day: ${day}`);
    }
    const events = doc.paths['/api/analytics/events'].get.parameters as Parameter[];
    for (const name of ['from', 'to']) {
      const parameter = events.find((p) => p.name === name);
      expect(
        parameter?.schema.anyOf?.map((s) => s.format),
        name,
      ).toEqual(['date', 'date-time']);
    }
    const described = (name: string) =>
      parameters.find((p) => p.name === name)?.schema.description ?? '';
    expect(described('scheduledFrom')).toMatch(/`scheduledAt` is at or after .*inclusive/);
    expect(described('scheduledTo')).toMatch(/`scheduledAt` is at or before .*inclusive/);
    expect(described('publishedFrom')).toMatch(/`publishedAt` is at or after .*inclusive/);
    expect(described('publishedTo')).toMatch(/`publishedAt` is at or before .*inclusive/);
    expect(described('publishedTo')).toMatch(/without a `publishedAt` never match/);
  });

  it("states every rule of a post's title and tags, one line included", () => {
    const body = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema.properties;
    for (const [path, method] of [
      ['/api/content/posts', 'post'],
      ['/api/content/posts/{id}', 'put'],
    ] as const) {
      const { title, tags } = body(path, method);
      expect(title.description, method).toContain('1–300 characters once trimmed, on one line');
      expect(title.description, method).toContain(SINGLE_LINE_MESSAGE);
      expect(tags.items.description, method).toBe(
        '1–50 characters once trimmed, on one line (no tab or line break).',
      );
    }
  });

  it('documents success statuses as the server answers them', () => {
    expect(Object.keys(doc.paths['/api/users'].post.responses)).toContain('201');
    expect(doc.paths['/api/users'].post.responses['200']).toBeUndefined();
    expect(doc.paths['/api/users/{userId}'].delete.responses['204'].content).toBeUndefined();
  });

  it('documents errors with the envelope and their codes', () => {
    const create = doc.paths['/api/users'].post.responses;
    // The envelope, with the codes of this status on this operation as `error.code`'s enum.
    const [envelope, narrowed] = create['400'].content['application/json'].schema.allOf;
    expect(envelope).toEqual({ $ref: '#/components/schemas/Error' });
    expect(narrowed.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['validation_error', 'invalid_json', 'email_already_exists']),
    );
    expect(narrowed.properties.error.properties.code.enum).not.toContain('last_admin');
    expect(Object.keys(create['400'].content['application/json'].examples)).toEqual(
      expect.arrayContaining(['validation_error', 'invalid_json', 'email_already_exists']),
    );
    expect(Object.keys(doc.paths['/api/users/{userId}'].delete.responses)).toEqual(
      expect.arrayContaining(['204', '401', '403', '404', '409', '500']),
    );
    // A 404 for ids given in the query, not the path: another account's channel.
    expect(doc.paths['/api/content/channels/next-slot'].get.responses['404']).toBeDefined();
  });

  it('names the details a status change’s 409 carries', () => {
    const update = doc.paths['/api/content/posts/{id}'].put;
    const status = update.requestBody.content['application/json'].schema.properties.status;
    expect(status.description).toContain('`details.allowedStatuses`');
    expect(status.description).toContain('`details.unconfirmedTargets`');
  });

  it('documents request bodies as JSON only, each with an example, forms in the description', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { requestBody?: { content: object } }>).map(
        ([method, operation]) => ({ at: `${method} ${path}`, body: operation.requestBody }),
      ),
    );
    const bodies = operations.filter(({ at, body }) => body && at.includes(' /api/'));
    expect(bodies.length).toBeGreaterThan(10);
    for (const { at, body } of bodies) {
      // Generators send what is listed first: only JSON (or a multipart upload; an import
      // takes CSV too, a format of its own).
      const types = Object.keys(body?.content ?? {}).filter((type) => type !== 'text/csv');
      expect(types.length, at).toBe(1);
      if (types[0] === 'multipart/form-data') continue;
      expect(types[0], at).toBe('application/json');
      const json = (body?.content as Record<string, { example?: unknown }>)['application/json'];
      expect(json?.example, at).toBeDefined();
    }
    expect(doc.info.description).toContain('application/x-www-form-urlencoded');
  });

  it('types the upload as binary, error codes as enums, and says no internal references', () => {
    const upload = doc.paths['/api/content/media'].post.requestBody.content['multipart/form-data'];
    expect(upload.schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    const envelope = doc.components.schemas.Error.properties.error.properties.code;
    expect(envelope.enum).toEqual(expect.arrayContaining(['validation_error', 'last_admin']));
    expect(JSON.stringify(doc)).not.toMatch(/\u00a7|decisions\.md/);
  });

  it('declares its tags, with descriptions, and the OAuth endpoints', () => {
    const declared = (doc.tags as { name: string; description: string }[]).map((t) => t.name);
    const used = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? []),
    );
    for (const tag of used) expect(declared).toContain(tag);
    for (const tag of doc.tags as { description: string }[]) expect(tag.description).toBeTruthy();
    for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
      expect(Object.keys(doc.paths[path].post.requestBody.content)).toEqual([
        'application/x-www-form-urlencoded',
      ]);
    }
    expect(doc.paths['/.well-known/oauth-authorization-server'].get.security).toEqual([]);
  });

  it('is public', async () => {
    expect((await h.call('GET', '/api/openapi.json', { token: null })).status).toBe(200);
  });
});

describe('real responses match the document', () => {
  it('for every users operation, in success and in error', async () => {
    const body = { name: 'Doc User', email: 'doc@acme.test', password: 'doc-password' };
    expect(await conforms('post', '/api/users', '/api/users', { body })).toBe(201);
    expect(await conforms('post', '/api/users', '/api/users', { body })).toBe(400);
    expect(
      await conforms('post', '/api/users', '/api/users', {
        raw: '{',
        contentType: 'application/json',
      }),
    ).toBe(400);
    expect(await conforms('post', '/api/users', '/api/users', { token: null, body })).toBe(401);
    expect(await conforms('get', '/api/users', '/api/users')).toBe(200);
    expect(await conforms('get', '/api/users?limit=500', '/api/users')).toBe(400);
    const { json } = await h.call('GET', '/api/users?limit=1');
    const id = json.data[0].id;
    expect(await conforms('get', `/api/users/${id}`, '/api/users/{userId}')).toBe(200);
    expect(await conforms('get', '/api/users/usr_none', '/api/users/{userId}')).toBe(404);
    expect(
      await conforms('put', `/api/users/${id}`, '/api/users/{userId}', {
        body: { name: 'Renamed' },
      }),
    ).toBe(200);
    expect(await conforms('delete', `/api/users/${id}`, '/api/users/{userId}')).toBe(204);
    expect(await conforms('delete', `/api/users/${h.main.adminId}`, '/api/users/{userId}')).toBe(
      409,
    );
    const { secret } = await h.keyFor(h.main.adminId, ['content:read']);
    expect(await conforms('get', '/api/users', '/api/users', { token: secret })).toBe(403);
    expect(await conforms('get', '/api/health', '/api/health', { token: null })).toBe(200);
  });

  it('for every posts operation, in success and in error', async () => {
    const list = '/api/content/posts';
    const one = '/api/content/posts/{id}';
    const body = { title: 'Doc post', tags: ['doc'] };
    expect(await conforms('post', list, list, { body })).toBe(201);
    expect(await conforms('post', list, list, { body: { title: '' } })).toBe(400);
    expect(await conforms('post', list, list, { body: { title: 'x', status: 'archived' } })).toBe(
      409,
    );
    expect(await conforms('get', `${list}?q=Doc&tag=doc`, list)).toBe(200);
    expect(await conforms('get', `${list}?limit=500`, list)).toBe(400);
    const march = 'scheduledFrom=2031-03-01T00:00:00Z&scheduledTo=2031-03-31T23:59:59.999Z';
    expect(await conforms('get', `${list}?status=scheduled&${march}`, list)).toBe(200);
    const reversed = 'publishedFrom=2031-03-02T00:00:00Z&publishedTo=2031-03-01T00:00:00Z';
    expect(await conforms('get', `${list}?${reversed}`, list)).toBe(400);
    const { json } = await h.call('GET', `${list}?limit=1`);
    const id = json.data[0].id;
    expect(await conforms('get', `${list}/${id}`, one)).toBe(200);
    expect(await conforms('get', `${list}/post_none`, one)).toBe(404);
    expect(await conforms('put', `${list}/${id}`, one, { body: { status: 'published' } })).toBe(
      200,
    );
    expect(await conforms('put', `${list}/${id}`, one, { body: { status: 'draft' } })).toBe(409);
    expect(await conforms('delete', `${list}/${id}`, one)).toBe(204);
    const { secret } = await h.keyFor(h.main.adminId, ['content:read']);
    expect(await conforms('post', list, list, { token: secret, body })).toBe(403);
  });

  it('for every analytics operation, in success and in error', async () => {
    const events = '/api/analytics/events';
    const post = (await h.call('POST', '/api/content/posts', { body: { title: 'Measured' } })).json
      .data;
    const body = {
      events: [{ type: 'impression', contentId: post.id, count: 10 }, { type: 'like' }],
    };
    expect(await conforms('post', events, events, { body })).toBe(201);
    expect(await conforms('post', events, events, { body: { events: [] } })).toBe(400);
    expect(await conforms('get', `${events}?type=like`, events)).toBe(200);
    expect(await conforms('get', '/api/analytics/stats', '/api/analytics/stats')).toBe(200);
    expect(await conforms('get', '/api/analytics/stats?from=x', '/api/analytics/stats')).toBe(400);
    const one = '/api/analytics/content/{id}';
    expect(await conforms('get', `/api/analytics/content/${post.id}`, one)).toBe(200);
    expect(await conforms('get', '/api/analytics/content/post_none', one)).toBe(404);
  });

  it('for every webhooks operation, in success and in error', async () => {
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    const list = '/api/webhooks';
    const one = '/api/webhooks/{id}';
    const body = { url: 'http://127.0.0.1:9/hook', events: ['post.published'] };
    expect(await conforms('post', list, list, { body })).toBe(201);
    expect(await conforms('post', list, list, { body: { url: 'x', events: [] } })).toBe(400);
    expect(await conforms('get', list, list)).toBe(200);
    const id = (await h.call('GET', list)).json.data[0].id;
    expect(await conforms('get', `${list}/${id}`, one)).toBe(200);
    expect(await conforms('put', `${list}/${id}`, one, { body: { description: 'd' } })).toBe(200);
    expect(await conforms('post', `${list}/${id}/rotate-secret`, `${one}/rotate-secret`)).toBe(200);
    expect(await conforms('post', `${list}/${id}/test`, `${one}/test`)).toBe(201);
    expect(await conforms('get', `${list}/${id}/deliveries`, `${one}/deliveries`)).toBe(200);
    const delivery = (await h.call('GET', `${list}/${id}/deliveries`)).json.data[0].id;
    const retry = '/api/webhooks/{id}/deliveries/{deliveryId}/retry';
    expect(await conforms('post', `${list}/${id}/deliveries/${delivery}/retry`, retry)).toBe(200);
    expect(await conforms('post', `${list}/${id}/deliveries/del_none/retry`, retry)).toBe(404);
    expect(await conforms('delete', `${list}/${id}`, one)).toBe(204);
    expect(await conforms('get', `${list}/${id}`, one)).toBe(404);
  });
});

describe('the webhooks section', () => {
  it('describes every event type Chorus sends, with a payload schema naming the object', async () => {
    const { EVENT_TYPES } = await import('@chorus/validators');
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const published = doc.webhooks['post.published'].post;
    expect(published.parameters.map((p: { name: string }) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const ref = published.requestBody.content['application/json'].schema.$ref;
    const schema = doc.components.schemas[ref.split('/').pop()];
    expect(schema.properties.type.const).toBe('post.published');
    expect(schema.properties.data.properties.object.$ref).toBe('#/components/schemas/Post');
    // A real payload fits it.
    const validate = ajv.compile({ $ref: `doc${ref}` });
    const post = (
      await h.call('POST', '/api/content/posts', {
        body: { title: 'Evented', status: 'published' },
      })
    ).json.data;
    const payload = {
      id: 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      type: 'post.published',
      timestamp: new Date().toISOString(),
      data: { object: post },
    };
    expect(validate(payload), JSON.stringify(validate.errors)).toBe(true);
  });
});
