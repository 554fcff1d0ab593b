/** Generators of hostile input for the fuzz test, shaped by an OpenAPI schema where one is given. */
import fc from 'fast-check';
import { pngDeclaring } from './media-fixtures';

export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
}

/** Nested arrays `depth` deep: parsers that recurse must not fall over. */
const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A value of any type, with the usual suspects: NUL bytes, huge and empty strings, unicode. */
export const hostileValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(
      null,
      true,
      0,
      -1,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\uFEFF\u202E',
      '\uD800',
      '💥'.repeat(500),
      'x'.repeat(70_000),
      "'; drop table users; --",
      '{{7*7}}',
      // Years the database or an ISO answer cannot hold, as a timestamp field would take them.
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:30:00-05:00',
      // Counters at and past 32 bits.
      2_147_483_647,
      2_147_483_648,
      4_294_967_295,
      1e12,
      '../../etc/passwd',
      'javascript:alert(1)',
      '__proto__',
      [],
      {},
      { __proto__: { role: 'admin' } },
    ),
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.double(),
    fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
  );

/** A plausible value for a property, so requests also get past validation into the services. */
const plausible = (schema: Schema | undefined): fc.Arbitrary<unknown> => {
  const known = [schema?.example, schema?.default, ...(schema?.enum ?? [])].filter(
    (value) => value !== undefined,
  );
  return known.length > 0 ? fc.constantFrom(...known) : hostileValue();
};

/** An object on the schema's properties: each plausible, hostile or left out. */
const objectFor = (schema: Schema | undefined) => {
  const entries = Object.entries(schema?.properties ?? {});
  return fc
    .tuple(
      ...entries.map(([name, property]) =>
        fc.option(fc.tuple(fc.constant(name), fc.oneof(plausible(property), hostileValue())), {
          nil: undefined,
        }),
      ),
      fc.option(
        fc.tuple(fc.constantFrom('__proto__', 'constructor', 'id', 'extra'), hostileValue()),
        {
          nil: undefined,
        },
      ),
    )
    .map((pairs) => {
      const out: Record<string, unknown> = Object.create(null);
      for (const pair of pairs) if (pair) out[pair[0]] = pair[1];
      return out;
    });
};

const formValue = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/** Dates and timestamps for range filters: plain days, edges, impossible days, year 0. */
export const hostileDate = () =>
  fc.constantFrom(
    '2026-11-23',
    '2026-02-29',
    '2028-02-29',
    '2026-02-30',
    '0000-01-01',
    '0001-01-01',
    '9999-12-31',
    '10000-01-01',
    '2026-11-23T00:00:00Z',
    '0001-01-01T00:00:00+01:00',
    '2026-11-23T24:00:00Z',
    '2026-1-2',
  );

/** A multipart body with one `file` part, as the media upload takes it. */
const multipartFile = (name: string, bytes: Buffer): HostileBody => ({
  contentType: 'multipart/form-data; boundary=x',
  bytes: new Uint8Array(
    Buffer.concat([
      Buffer.from(
        `--x\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      bytes,
      Buffer.from('\r\n--x--\r\n'),
    ]),
  ),
});

/** A batch of tracked events, each standing for `count` occurrences of one type today. */
const eventBatch = (size: number, count: number) =>
  JSON.stringify({
    events: Array.from({ length: size }, () => ({ type: 'like', integrationId: 'x', count })),
  });

export interface HostileBody {
  contentType: string;
  bytes: Uint8Array | string;
}

/** A body for the operation: its schema's shape with hostile values, or hostile bytes. */
export const hostileBody = (schema: Schema | undefined): fc.Arbitrary<HostileBody> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: objectFor(schema).map((o) => ({
        contentType: 'application/json',
        bytes: JSON.stringify(o),
      })),
    },
    {
      weight: 2,
      // Arrays as repeated keys (docs/api.md), as `tags=a&tags=b` or as `tags[]=a&tags[]=b`.
      arbitrary: fc.tuple(objectFor(schema), fc.constantFrom('', '[]')).map(([o, brackets]) => ({
        contentType: 'application/x-www-form-urlencoded',
        bytes: new URLSearchParams(
          Object.entries(o).flatMap(([k, v]): [string, string][] =>
            Array.isArray(v)
              ? v.map((item) => [`${k}${brackets}`, formValue(item)])
              : [[k, formValue(v)]],
          ),
        ).toString(),
      })),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom<HostileBody>(
        { contentType: 'application/json', bytes: '{"name": ' },
        { contentType: 'application/json', bytes: deep(20_000) },
        { contentType: 'application/json', bytes: `{"a":${deep(5_000)}}` },
        { contentType: 'application/json', bytes: `{"name":"x","a":${deep(64)}}` },
        // Images declaring 2^32 − 1 pixels on a side, or none.
        multipartFile('huge.png', pngDeclaring(0xffffffff, 0xffffffff)),
        multipartFile('empty.png', pngDeclaring(0, 9)),
        // Large counters: a full batch at the most an event may stand for (10^9 a request,
        // past 2^31 − 1 in three), and one event past it.
        { contentType: 'application/json', bytes: eventBatch(1000, 1_000_000) },
        { contentType: 'application/json', bytes: eventBatch(1, 2_147_483_648) },
        { contentType: 'application/json', bytes: '[1,2,3]' },
        { contentType: 'application/json', bytes: 'null' },
        { contentType: 'application/json', bytes: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) },
        { contentType: 'application/json; charset=utf-16', bytes: '{}' },
        { contentType: 'application/x-www-form-urlencoded', bytes: '%E0%A4%A=%ZZ&a[b][c][d]=1&&=' },
        { contentType: 'application/x-www-form-urlencoded', bytes: 'settings[__proto__][x]=1' },
        { contentType: 'text/plain', bytes: 'hello' },
        { contentType: 'multipart/form-data; boundary=x', bytes: '--x\r\nbroken' },
        { contentType: '', bytes: '{}' },
        { contentType: 'application/json', bytes: `{"name":"${'a'.repeat(1024 * 1024)}"}` },
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((bytes) => ({ contentType: 'application/json', bytes })),
    },
  );
