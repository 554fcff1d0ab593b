/**
 * An example value built from a JSON schema of the document, for request bodies and success
 * answers that have none: the schema's own examples, defaults and enums first, else a plain value of the type.
 * Only required fields (and those with an example of their own), so that it stays short and
 * valid (Redocly checks each example against its schema).
 */
type Schema = Record<string, unknown>;

const PLAIN_STRINGS: Record<string, string> = {
  email: 'ada@example.com',
  uri: 'https://app.example.com',
  url: 'https://app.example.com',
  'date-time': '2026-11-21T10:00:00.000Z',
  date: '2026-11-21',
};

/** Whether a schema, or a branch of it (`T | null`), has an example of its own. */
const exemplified = (schema: Schema): boolean =>
  schema.example !== undefined ||
  [schema.anyOf, schema.oneOf].some(
    (branches) => Array.isArray(branches) && branches.some((b) => exemplified(b as Schema)),
  );

export function exampleOf(schema: unknown, schemas: Record<string, unknown>, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 16) return undefined;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    return exampleOf(schemas[name], schemas, depth + 1);
  }
  const own = s.example ?? (Array.isArray(s.examples) ? s.examples[0] : undefined);
  if (own !== undefined) return completed(own, shapeExample(s, schemas, depth));
  return shapeExample(s, schemas, depth);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An author's example of an object (or of a list of objects) may show only the fields that
 * matter to it: the fields its schema requires are added, so that it stays valid.
 */
function completed(own: unknown, shape: unknown): unknown {
  if (isRecord(own) && isRecord(shape)) return { ...shape, ...own };
  if (Array.isArray(own) && Array.isArray(shape) && isRecord(shape[0])) {
    const item = shape[0];
    return own.map((element) => (isRecord(element) ? { ...item, ...element } : element));
  }
  return own;
}

/** An example from the schema's shape alone (its own example aside). */
function shapeExample(s: Schema, schemas: Record<string, unknown>, depth: number): unknown {
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches)) {
      const branch = branches.find((b) => (b as Schema).type !== 'null');
      return exampleOf(branch, schemas, depth + 1);
    }
  }
  if (Array.isArray(s.allOf)) {
    return Object.assign({}, ...s.allOf.map((part) => exampleOf(part, schemas, depth + 1)));
  }
  // `["string", "null"]`: an example of the type that is not null.
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required ?? []) as string[]);
      const example: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (!required.has(name) && !exemplified(property)) continue;
        const value = exampleOf(property, schemas, depth + 1);
        if (value !== undefined) example[name] = value;
      }
      return example;
    }
    case 'array': {
      const item = exampleOf(s.items, schemas, depth + 1);
      return item === undefined ? [] : [item];
    }
    case 'string': {
      const plain = PLAIN_STRINGS[String(s.format)] ?? 'text';
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      return plain.length >= min ? plain : plain.padEnd(min, 'x');
    }
    case 'integer':
    case 'number': {
      // 1 within the bounds (an unbounded integer's minimum is −2^53 + 1, no example to show).
      const min = typeof s.minimum === 'number' ? s.minimum : 1;
      const max = typeof s.maximum === 'number' ? s.maximum : Infinity;
      return Math.min(Math.max(1, min), max);
    }
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}
