/** Generators of hostile input for the fuzz test, shaped by an OpenAPI schema where one is given. */
import fc from 'fast-check';

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
      arbitrary: objectFor(schema).map((o) => ({
        contentType: 'application/x-www-form-urlencoded',
        bytes: new URLSearchParams(
          Object.entries(o).map(([k, v]) => [
            k,
            typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
          ]),
        ).toString(),
      })),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom<HostileBody>(
        { contentType: 'application/json', bytes: '{"name": ' },
        { contentType: 'application/json', bytes: deep(20_000) },
        { contentType: 'application/json', bytes: `{"a":${deep(5_000)}}` },
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
