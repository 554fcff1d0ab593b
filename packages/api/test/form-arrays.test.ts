import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../src';
import { z } from 'zod';
import { formLists, formToJson } from '../src/rest/form';
import { routeTable } from '../src/rest/routes';
import { startHarness, type Harness } from './harness';
import { createPost, mediaOf } from './posts-fixtures';
import { startReceiver, type Receiver } from './receiver';
import { channelOf } from './targets-fixtures';

let h: Harness;
let receiver: Receiver;
let bluesky: string;
let mastodon: string;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'd'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  h = await startHarness();
  receiver = await startReceiver();
  bluesky = await channelOf(h, h.main.accountId, 'bluesky');
  mastodon = await channelOf(h, h.main.accountId, 'mastodon');
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

/** A list's two items: strings (a list of values), or objects of strings (a list of objects). */
type Items = [string, string] | [Record<string, string>, Record<string, string>];

interface ListCase {
  /** The path to call, and the body's other fields, made fresh for each case. */
  prepare(): Promise<{ path: string; fields: [string, string][] }>;
  /** Two items the field accepts, in the order the answer keeps. */
  values(): Promise<Items>;
  /** Where the answer holds the list, when not at the field's own path in `data`. */
  read?: (data: unknown) => unknown;
  /**
   * For an answer that is not the resource (the preflight): 200 and this check, instead of the
   * field read back. A field not parsed as a list would have been a 400.
   */
  check?: (json: { data: Record<string, unknown> }) => void;
}

/** `targets[0][mediaIds]` as the steps into an answer: `targets`, 0, `mediaIds`. */
const stepsOf = (field: string) =>
  field
    .split(/[[\]]+/)
    .filter(Boolean)
    .map((step) => (/^\d+$/.test(step) ? Number(step) : step));
const at = (data: unknown, field: string) =>
  stepsOf(field).reduce<unknown>((value, step) => (value as Record<string, unknown>)[step], data);

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
const twoTargets = async (): Promise<Items> => [
  { channelId: bluesky },
  { channelId: mastodon, content: 'The Mastodon version' },
];
const twoParts = async (): Promise<Items> => [{ content: 'Part two' }, { content: 'Part three' }];
/** A post's first target, on Bluesky, before the field under test (channels exist once set up). */
const firstTarget = (): [string, string][] => [['targets[0][channelId]', bluesky]];
const threadPart = (): [string, string][] => [
  ...firstTarget(),
  ['targets[0][thread][0][content]', 'Part two'],
];
const valid = (json: { data: Record<string, unknown> }) =>
  expect(json.data).toEqual({ valid: true, issues: [] });

/** The cases of a post's body, on the three routes that take one. */
function postCases(): Record<string, ListCase> {
  const routes = {
    'POST /api/content/posts': async () => '/api/content/posts',
    'PUT /api/content/posts/{id}': async () => `/api/content/posts/${await newPost()}`,
    'POST /api/content/posts/validate': async () => '/api/content/posts/validate',
  };
  const none = (): [string, string][] => [];
  const fieldCases: Record<
    string,
    Omit<ListCase, 'prepare'> & { fields: () => [string, string][] }
  > = {
    tags: { fields: none, values: tags },
    mediaIds: { fields: none, values: twoMedia },
    targets: { fields: none, values: twoTargets },
    'targets[0][mediaIds]': { fields: firstTarget, values: twoMedia },
    'targets[0][thread]': { fields: firstTarget, values: twoParts },
    'targets[0][thread][0][mediaIds]': { fields: threadPart, values: twoMedia },
  };
  const cases: Record<string, ListCase> = {};
  for (const [route, pathOf] of Object.entries(routes)) {
    for (const [field, { fields, ...rest }] of Object.entries(fieldCases)) {
      // A post's text too, which the networks ask of every target the preflight checks.
      const title: [string, string][] = route.startsWith('PUT')
        ? []
        : [
            ['title', 'x'],
            ['content', 'Hello'],
          ];
      cases[`${route} ${field}`] = {
        ...rest,
        prepare: async () => ({ path: await pathOf(), fields: [...title, ...fields()] }),
        ...(route.endsWith('validate') && { check: valid }),
      };
    }
  }
  return cases;
}

/** Every list field of every body, as `METHOD path field`: each with its own case. */
const CASES: Record<string, ListCase> = {
  ...postCases(),
  'POST /api/webhooks events': {
    prepare: async () => ({ path: '/api/webhooks', fields: [['url', receiver.url]] }),
    values: eventTypes,
  },
  'PUT /api/webhooks/{id} events': {
    prepare: async () => ({ path: `/api/webhooks/${await newHook()}`, fields: [] }),
    values: eventTypes,
  },
  'POST /api/analytics/events events': {
    prepare: async () => ({ path: '/api/analytics/events', fields: [] }),
    values: async () => [{ type: 'view' }, { type: 'click' }],
    // The answer is the list of events recorded.
    read: (data) => data,
  },
  'PUT /api/content/channels/{id}/slots slots': {
    prepare: async () => ({
      path: `/api/content/channels/${await channelOf(h, h.main.accountId, 'x')}/slots`,
      fields: [],
    }),
    values: async () => [
      { day: 'monday', time: '09:30' },
      { day: 'tuesday', time: '17:00' },
    ],
  },
};

/** The form's pairs for a list's items: repeated keys (`key`) or numbered items' fields. */
function itemPairs(key: string, items: Items): [string, string][] {
  return items.flatMap((item, i): [string, string][] =>
    typeof item === 'string'
      ? [[key, item]]
      : Object.entries(item).map(([name, value]) => [`${key}[${i}][${name}]`, value]),
  );
}

describe('form bodies: lists as repeated keys or numbered items (docs/api.md)', () => {
  it('has a case for every list field of every body the API takes', () => {
    const found = routeTable(appRouter)
      .routes.filter((route) => route.method !== 'GET' && route.method !== 'DELETE')
      .flatMap((route) => formLists(route.input).map((f) => `${route.method} ${route.path} ${f}`));
    expect(found.sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const [name, testCase] of Object.entries(CASES)) {
    const [method = '', , field = ''] = name.split(' ');
    it(`${name}: read back as the list sent`, async () => {
      const items = await testCase.values();
      // A list of values takes `key=a&key=b` and `key[]=a&key[]=b`; a list of objects
      // numbers its items: `key[0][name]=a&key[1][name]=b`.
      const keys = typeof items[0] === 'string' ? [field, `${field}[]`] : [field];
      for (const key of keys) {
        const { path, fields } = await testCase.prepare();
        const { status, json } = await sendForm(method, path, [
          ...fields,
          ...itemPairs(key, items),
        ]);
        if (testCase.check) {
          expect(status, `${key}: ${JSON.stringify(json)}`).toBe(200);
          testCase.check(json);
          continue;
        }
        expect(status, `${key}: ${JSON.stringify(json)}`).toBe(method === 'POST' ? 201 : 200);
        const list = testCase.read ? testCase.read(json.data) : at(json.data, field);
        expect(list, key).toMatchObject(items);
        expect((list as unknown[]).length, key).toBe(2);
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

describe('form bodies: lists of objects as JSON would give them', () => {
  it('refuses an unknown channel in a form as in JSON (400 on targets[0].channelId), creating nothing', async () => {
    const before = (await h.call('GET', '/api/content/posts')).json.meta.pagination.total;
    const form = await sendForm('POST', '/api/content/posts', [
      ['title', 'form targets'],
      ['targets[0][channelId]', 'chn_nope'],
      ['targets[0][content]', 'hello'],
    ]);
    const json = await h.call('POST', '/api/content/posts', {
      body: { title: 'form targets', targets: [{ channelId: 'chn_nope', content: 'hello' }] },
    });
    expect(json.status).toBe(400);
    expect(form.status, JSON.stringify(form.json)).toBe(400);
    expect(form.json.error).toEqual(json.json.error);
    expect(form.json.error.details.issues[0].path).toBe('targets[0].channelId');
    expect((await h.call('GET', '/api/content/posts')).json.meta.pagination.total).toBe(before);
  });

  it("replaces a post's targets with a form's (PUT), as JSON does", async () => {
    const id = await newPost();
    const { status, json } = await sendForm('PUT', `/api/content/posts/${id}`, [
      ['targets[0][channelId]', mastodon],
      ['targets[0][content]', 'Form text'],
      ['targets[0][thread][0][content]', 'Form part'],
      ['targets[1][channelId]', bluesky],
    ]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.data.targets).toMatchObject([
      { channelId: mastodon, content: 'Form text', thread: [{ content: 'Form part' }] },
      { channelId: bluesky },
    ]);
    const read = await h.call('GET', `/api/content/posts/${id}`);
    expect(read.json.data.targets).toEqual(json.data.targets);
  });

  it("validates a form's targets item by item, naming each by its index", async () => {
    const { status, json } = await sendForm('POST', '/api/content/posts/validate', [
      ['title', 'x'],
      ['content', 'Hello'],
      ['targets[0][channelId]', bluesky],
      ['targets[0][thread][0][content]', 'Part two'],
      ['targets[0][thread][0][mediaIds][]', 'med_nope'],
      ['targets[1][channelId]', 'chn_nope'],
    ]);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.data.valid).toBe(false);
    expect(json.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'targets[0].thread[0].mediaIds[0]',
      'targets[1].channelId',
    ]);
  });

  it('records a batch of analytics events with numbers and properties read as JSON gives them', async () => {
    const { status, json } = await sendForm('POST', '/api/analytics/events', [
      ['events[0][type]', 'view'],
      ['events[0][count]', '3'],
      ['events[0][properties][source]', 'form'],
      ['events[0][properties][page][path]', '/launch'],
      ['events[1][type]', 'click'],
    ]);
    expect(status, JSON.stringify(json)).toBe(201);
    expect(json.data).toMatchObject([
      { type: 'view', count: 3, properties: { source: 'form', page: { path: '/launch' } } },
      { type: 'click', count: 1, properties: {} },
    ]);
    // A count that is not an integer in digits is refused naming the item's field.
    for (const count of ['many', '2.0', '1e3']) {
      const refused = await sendForm('POST', '/api/analytics/events', [
        ['events[0][type]', 'view'],
        ['events[0][count]', count],
      ]);
      expect(refused.status, count).toBe(400);
      expect(refused.json.error.details.issues[0].path, count).toBe('events[0].count');
    }
  });
});

describe('form keys the reader cannot place: 400 naming the key, never dropped', () => {
  /** The refusal's issues for a form body sent to create a post. */
  const refusal = async (pairs: [string, string][]) => {
    const before = (await h.call('GET', '/api/content/posts')).json.meta.pagination.total;
    const { status, json } = await sendForm('POST', '/api/content/posts', [
      ['title', 'x'],
      ...pairs,
    ]);
    expect(status, JSON.stringify(pairs)).toBe(400);
    expect(json.error.code).toBe('validation_error');
    expect((await h.call('GET', '/api/content/posts')).json.meta.pagination.total).toBe(before);
    return json.error.details.issues as { path: string; message: string }[];
  };

  it('refuses an index past the list so far (no sparse list), naming the item', async () => {
    for (const index of ['1', '2', '99999999', '1e3', '00']) {
      const issues = await refusal([[`targets[${index}][channelId]`, bluesky]]);
      expect(issues.map((i) => i.path)).toEqual(
        /^\d+$/.test(index) && index !== '00' ? [`targets[${index}]`] : ['targets'],
      );
    }
    // Items come from 0, in order: item 2 before item 1 is refused.
    const issues = await refusal([
      ['targets[0][channelId]', bluesky],
      ['targets[2][channelId]', mastodon],
      ['targets[1][channelId]', mastodon],
    ]);
    expect(issues).toEqual([
      { path: 'targets[2]', message: 'Items are numbered from 0, in order: the next is 1.' },
    ]);
  });

  it('refuses a key given both as a value and with keys inside it, naming it', async () => {
    const cases: [[string, string][], string][] = [
      [
        [
          ['tags', 'a'],
          ['tags[b]', 'c'],
        ],
        'tags',
      ],
      [
        [
          ['tags[b]', 'c'],
          ['tags', 'a'],
        ],
        'tags',
      ],
      [
        [
          ['targets[0]', 'x'],
          ['targets[0][channelId]', bluesky],
        ],
        'targets[0]',
      ],
      [
        [
          ['targets[0][channelId]', bluesky],
          ['targets[0]', 'x'],
        ],
        'targets[0]',
      ],
      [
        [
          ['targets[0][channelId]', bluesky],
          ['targets[x]', 'y'],
        ],
        'targets',
      ],
      [
        [
          ['targets[x]', 'y'],
          ['targets[0][channelId]', bluesky],
        ],
        'targets',
      ],
      [
        [
          ['targets[0][channelId]', bluesky],
          ['targets[0][channelId][x]', 'y'],
        ],
        'targets[0].channelId',
      ],
    ];
    for (const [pairs, path] of cases) {
      const issues = await refusal(pairs);
      expect(
        issues.map((i) => i.path),
        JSON.stringify(pairs),
      ).toEqual([path]);
    }
  });

  it('refuses the same place given twice under two spellings', async () => {
    const issues = await refusal([
      ['tags[]', 'a'],
      ['tags[0]', 'b'],
    ]);
    expect(issues).toEqual([{ path: 'tags[0]', message: 'Given more than once.' }]);
  });

  it('refuses a key whose brackets do not read, naming it as sent', async () => {
    for (const key of [
      'targets[0',
      'targets]',
      'targets[0]x',
      '[0]',
      'targets[][channelId]',
      'tags[][]',
      '',
      'a[b[c]]',
    ]) {
      const issues = await refusal([[key, 'x']]);
      expect(issues, key).toEqual([
        { path: key, message: expect.stringContaining('Cannot be read as a field') },
      ]);
    }
  });

  it('reads a key 8 brackets deep and refuses one 9 deep, naming it', async () => {
    const eight = `events[0][properties]${'[a]'.repeat(6)}`;
    const ok = await sendForm('POST', '/api/analytics/events', [
      ['events[0][type]', 'view'],
      [eight, 'x'],
    ]);
    expect(ok.status, JSON.stringify(ok.json)).toBe(201);
    expect(ok.json.data[0].properties).toEqual({ a: { a: { a: { a: { a: { a: 'x' } } } } } });
    const nine = `events[0][properties]${'[a]'.repeat(7)}`;
    const refused = await sendForm('POST', '/api/analytics/events', [
      ['events[0][type]', 'view'],
      [nine, 'x'],
    ]);
    expect(refused.status).toBe(400);
    expect(refused.json.error.details.issues).toEqual([
      { path: nine, message: 'Nested deeper than 8 levels.' },
    ]);
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

describe('numbers in a form or a query string (docs/api.md)', () => {
  const schema = z.object({ count: z.number().int().optional(), rate: z.number().optional() });
  const read = (query: string) => ({ ...formToJson(new URLSearchParams(query), schema) });

  it('reads an integer field from digits only, and a number field from a decimal too', () => {
    expect(read('count=12&rate=1.5')).toEqual({ count: 12, rate: 1.5 });
    expect(read('count=-3&rate=2')).toEqual({ count: -3, rate: 2 });
    // A fraction, even zero, is not how an integer is written: refused as the schema says it.
    for (const count of ['1.0', '2.00', '1.5']) {
      expect(() => read(`count=${count}`), count).toThrow(
        expect.objectContaining({
          details: { issues: [{ path: 'count', message: 'Must be an integer.' }] },
        }),
      );
    }
    // Left as text for the schema to refuse.
    for (const count of ['1e3', '0x10', '+5', ' 2', 'Infinity']) {
      expect(read(`count=${encodeURIComponent(count)}`), count).toEqual({ count });
    }
    expect(read('rate=1e3')).toEqual({ rate: '1e3' });
  });
});

describe('an empty list in a form or a query string: the list field with an empty value (docs/api.md)', () => {
  const schema = z.object({
    title: z.string().optional(),
    tags: z.array(z.string()).optional(),
    slots: z.array(z.object({ day: z.string() })).optional(),
    targets: z.array(z.object({ mediaIds: z.array(z.string()).optional() })).optional(),
  });
  const read = (query: string) => formToJson(new URLSearchParams(query), schema);

  it('reads `field=` as [] where the schema says a list, at any depth', () => {
    expect(read('slots=')).toEqual({ slots: [] });
    expect(read('tags=')).toEqual({ tags: [] });
    expect(read('targets[0][mediaIds]=')).toEqual({ targets: [{ mediaIds: [] }] });
    // Anything else keeps its value: `[]` is an item, an empty one among others is one too.
    expect(read('tags[]=')).toEqual({ tags: [''] });
    expect(read('tags=&tags=a')).toEqual({ tags: ['', 'a'] });
    expect(read('title=')).toEqual({ title: '' });
  });

  it('refuses the empty list and items of the same list, in either order', () => {
    for (const query of ['slots=&slots[0][day]=monday', 'slots[0][day]=monday&slots=']) {
      expect(() => read(query), query).toThrow(
        expect.objectContaining({
          details: {
            issues: [
              { path: 'slots', message: 'Given both as a value and with keys in brackets.' },
            ],
          },
        }),
      );
    }
  });

  it("clears a channel's posting slots by form (PUT slots=), as JSON's [] does", async () => {
    const path = `/api/content/channels/${bluesky}/slots`;
    const set = await h.call('PUT', path, { body: { slots: [{ day: 'monday', time: '09:30' }] } });
    expect(set.json.data.slots).toHaveLength(1);
    const cleared = await sendForm('PUT', path, [['slots', '']]);
    expect(cleared.status, JSON.stringify(cleared.json)).toBe(200);
    expect(cleared.json.data.slots).toEqual([]);
    expect((await h.call('GET', path)).json.data.slots).toEqual([]);
  });
});
