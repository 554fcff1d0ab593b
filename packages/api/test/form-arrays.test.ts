import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../src';
import { arrayFields } from '../src/rest/body';
import { routeTable } from '../src/rest/routes';
import { startHarness, type Harness } from './harness';
import { createPost, mediaOf } from './posts-fixtures';
import { startReceiver, type Receiver } from './receiver';

let h: Harness;
let receiver: Receiver;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'd'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  h = await startHarness();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

/** A form body sent to the door; `pairs` keep their order and may repeat a key. */
const sendForm = (method: string, path: string, pairs: [string, string][]) =>
  h.call(method, path, {
    raw: new URLSearchParams(pairs).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });

interface ArrayCase {
  /** The path to call, and the body's other fields, made fresh for each case. */
  prepare(): Promise<{ path: string; fields: [string, string][] }>;
  /** Two values the field accepts, in the order the answer keeps. */
  values(): Promise<[string, string]>;
  /**
   * For an answer that is not the resource (the preflight): 200 and this check, instead of the
   * field read back. A field not parsed as an array would have been a 400.
   */
  check?: (json: { data: Record<string, unknown> }) => void;
}

const newPost = async () => (await createPost(h, { title: 'Form target' })).id;
const newHook = async () => {
  const { status, json } = await h.call('POST', '/api/webhooks', {
    body: { url: receiver.url, events: ['*'] },
  });
  expect(status).toBe(201);
  return json.data.id as string;
};
const twoMedia = async (): Promise<[string, string]> => [
  await mediaOf(h, h.main.accountId),
  await mediaOf(h, h.main.accountId),
];
const tags = async (): Promise<[string, string]> => ['a', 'b'];
const eventTypes = async (): Promise<[string, string]> => ['post.created', 'post.published'];

/** Every array field of every body, as `METHOD path field`: each with its own case. */
const CASES: Record<string, ArrayCase> = {
  'POST /api/content/posts tags': {
    prepare: async () => ({ path: '/api/content/posts', fields: [['title', 'x']] }),
    values: tags,
  },
  'POST /api/content/posts mediaIds': {
    prepare: async () => ({ path: '/api/content/posts', fields: [['title', 'x']] }),
    values: twoMedia,
  },
  'PUT /api/content/posts/{id} tags': {
    prepare: async () => ({ path: `/api/content/posts/${await newPost()}`, fields: [] }),
    values: tags,
  },
  'PUT /api/content/posts/{id} mediaIds': {
    prepare: async () => ({ path: `/api/content/posts/${await newPost()}`, fields: [] }),
    values: twoMedia,
  },
  'POST /api/content/posts/validate tags': {
    prepare: async () => ({ path: '/api/content/posts/validate', fields: [['title', 'x']] }),
    values: tags,
    check: (json) => expect(json.data).toEqual({ valid: true, issues: [] }),
  },
  'POST /api/content/posts/validate mediaIds': {
    prepare: async () => ({ path: '/api/content/posts/validate', fields: [['title', 'x']] }),
    values: twoMedia,
    check: (json) => expect(json.data).toEqual({ valid: true, issues: [] }),
  },
  'POST /api/webhooks events': {
    prepare: async () => ({ path: '/api/webhooks', fields: [['url', receiver.url]] }),
    values: eventTypes,
  },
  'PUT /api/webhooks/{id} events': {
    prepare: async () => ({ path: `/api/webhooks/${await newHook()}`, fields: [] }),
    values: eventTypes,
  },
};

describe('form bodies: arrays as repeated keys (docs/api.md)', () => {
  it('has a case for every array field of every body the API takes', () => {
    const found = routeTable(appRouter)
      .routes.filter((route) => route.method !== 'GET' && route.method !== 'DELETE')
      .flatMap((route) =>
        arrayFields(route.input).map((f) => `${route.method} ${route.path} ${f}`),
      );
    expect(found.sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const [name, testCase] of Object.entries(CASES)) {
    const [method = '', , field = ''] = name.split(' ');
    it(`${name}: key=a&key=b and key[]=a&key[]=b both give [a, b]`, async () => {
      for (const key of [field, `${field}[]`]) {
        const { path, fields } = await testCase.prepare();
        const [a, b] = await testCase.values();
        const { status, json } = await sendForm(method, path, [...fields, [key, a], [key, b]]);
        if (testCase.check) {
          expect(status, `${key}: ${JSON.stringify(json)}`).toBe(200);
          testCase.check(json);
          continue;
        }
        expect(status, `${key}: ${JSON.stringify(json)}`).toBe(method === 'POST' ? 201 : 200);
        expect(json.data[field], key).toEqual([a, b]);
      }
    });
  }

  it('gives a single value of an array field as a one-element array', async () => {
    const { status, json } = await sendForm('POST', '/api/content/posts', [
      ['title', 'x'],
      ['tags', 'solo'],
    ]);
    expect(status).toBe(201);
    expect(json.data.tags).toEqual(['solo']);
  });
});

describe('a field that is not an array, given more than once', () => {
  const givenTwice = (field: string) => [{ path: field, message: 'Given more than once.' }];

  it('is refused in a query string, naming the field, where one value was taken silently', async () => {
    for (const query of ['limit=1&limit=2', 'limit=1&limit[]=2', 'limit=2&limit=2']) {
      const { status, json } = await h.call('GET', `/api/content/media?${query}`);
      expect(status, query).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues, query).toEqual(givenTwice('limit'));
    }
    // A key no input names is dropped whatever it holds (a cache buster sent twice).
    expect((await h.call('GET', '/api/content/media?limit=1&_=1&_=2')).status).toBe(200);
  });

  it('is refused in a form body, top-level and nested', async () => {
    const title = await sendForm('POST', '/api/content/posts', [
      ['title', 'a'],
      ['title', 'b'],
    ]);
    expect(title.status).toBe(400);
    expect(title.json.error.details.issues).toEqual(givenTwice('title'));
    const settings = await sendForm('PUT', `/api/users/${h.main.adminId}`, [
      ['settings[notifications]', 'true'],
      ['settings[notifications]', 'false'],
    ]);
    expect(settings.status).toBe(400);
    expect(settings.json.error.details.issues).toEqual(givenTwice('settings.notifications'));
  });
});
