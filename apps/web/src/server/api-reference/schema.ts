/**
 * JSON Schemas of the OpenAPI document as rows a reader can scan: one per field, nested
 * fields under their parent's path (`data[].id`), each with its type, whether it is required,
 * its constraints and description.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows a local `$ref` (`#/components/…`) in `doc`; anything else stays as it is. */
export function resolve(doc: JsonObject, value: Json | undefined): JsonObject | undefined {
  let current = value;
  for (let hops = 0; hops < 10 && isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return undefined;
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<Json | undefined>((node, key) => (isObject(node) ? node[key] : undefined), doc);
  }
  return isObject(current) ? current : undefined;
}

/** The schema's name when it is a reference to a named schema. */
export const refName = (value: Json | undefined): string | undefined =>
  isObject(value) && typeof value.$ref === 'string' ? value.$ref.split('/').at(-1) : undefined;

export interface Row {
  /** `settings.notifications`, `data[].id`; empty for the schema itself. */
  path: string;
  type: string;
  required: boolean;
  description?: string;
  /** `1–200 characters`, `one of admin, user`, `default 50`… */
  notes: string[];
  /** The named schema the field is (or lists), for a link to it. */
  named?: string;
}

const variants = (schema: JsonObject): Json[] =>
  [schema.anyOf, schema.oneOf].find(Array.isArray) ?? [];

/** `string`, `integer`, `array of User`, `string or null`, `User`. */
export function typeLabel(doc: JsonObject, value: Json | undefined): string {
  const name = refName(value);
  if (name) return name;
  const schema = resolve(doc, value);
  if (!schema) return 'any';
  const options = variants(schema);
  if (options.length) return options.map((option) => typeLabel(doc, option)).join(' or ');
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array') return `array of ${typeLabel(doc, schema.items)}`;
  if (schema.const !== undefined) return `${typeof schema.const} (${JSON.stringify(schema.const)})`;
  const type =
    typeof schema.type === 'string' ? schema.type : isObject(schema.properties) ? 'object' : 'any';
  if (type === 'string' && schema.contentMediaType !== undefined) return 'file';
  return typeof schema.format === 'string' ? `${type} (${schema.format})` : type;
}

/** Constraints worth telling: ranges, lengths, enums, defaults, an example. */
export function notes(doc: JsonObject, value: Json | undefined): string[] {
  const schema = resolve(doc, value);
  if (!schema) return [];
  const said: string[] = [];
  const show = (v: Json) => JSON.stringify(v);
  if (Array.isArray(schema.enum)) said.push(`one of ${schema.enum.map(show).join(', ')}`);
  const range = (min: Json | undefined, max: Json | undefined, unit: string) => {
    // ±(2^53 − 1) is the generator's "any safe integer", not a limit anyone set.
    const upper = typeof max === 'number' && max < Number.MAX_SAFE_INTEGER ? max : undefined;
    if (typeof min === 'number' && min <= -Number.MAX_SAFE_INTEGER) min = undefined;
    if (min !== undefined && upper !== undefined) said.push(`${show(min)} to ${upper}${unit}`);
    else if (min !== undefined && !(min === 0 && unit)) said.push(`at least ${show(min)}${unit}`);
    else if (upper !== undefined) said.push(`at most ${upper}${unit}`);
  };
  range(schema.minimum, schema.maximum, '');
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minItems, schema.maxItems, ' items');
  if (typeof schema.pattern === 'string' && schema.format === undefined) {
    said.push(`matches ${schema.pattern}`);
  }
  if (schema.contentMediaType !== undefined) said.push(`sent as ${show(schema.contentMediaType)}`);
  if (schema.default !== undefined) said.push(`default ${show(schema.default)}`);
  if (schema.example !== undefined) said.push(`example ${show(schema.example)}`);
  return said;
}

/**
 * A schema's fields, nested ones under their parent's path; a schema that is not an object
 * (a string body, say) is one row with an empty path.
 */
export function rows(
  doc: JsonObject,
  value: Json | undefined,
  { maxDepth = 6, expandNamed = true } = {},
): Row[] {
  const out: Row[] = [];
  const row = (node: Json | undefined, path: string, required: boolean): Row => {
    const schema = resolve(doc, node);
    const description = typeof schema?.description === 'string' ? schema.description : undefined;
    const named = refName(node) ?? refName(schema?.items);
    return {
      path,
      type: typeLabel(doc, node),
      required,
      description,
      notes: notes(doc, node),
      named,
    };
  };
  /** The rows under `path`: an object's properties, an array's items' (`path[]`). */
  const fields = (node: Json | undefined, path: string, seen: string[]): boolean => {
    const name = refName(node);
    // A schema met again inside itself (a tree) is named, not expanded forever.
    if ((name && seen.includes(name)) || seen.length > maxDepth) return false;
    // Without expandNamed, a named schema inside another is its name (listed on its own).
    if (name && seen.length > 0 && !expandNamed) return false;
    const schema = resolve(doc, node);
    if (!schema) return false;
    const inside = name ? [...seen, name] : [...seen, ''];
    // `X or null`: its fields are those of X.
    const concrete = variants(schema).filter((o) => resolve(doc, o)?.type !== 'null');
    if (concrete.length === 1) return fields(concrete[0], path, inside);
    if (schema.type === 'array') return fields(schema.items, `${path}[]`, inside);
    if (!isObject(schema.properties)) return false;
    const needed = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const [key, child] of Object.entries(schema.properties)) {
      const at = path ? `${path}.${key}` : key;
      out.push(row(child, at, needed.has(key)));
      fields(child, at, inside);
    }
    return true;
  };
  if (!fields(value, '', [])) out.push(row(value, '', true));
  return out;
}
