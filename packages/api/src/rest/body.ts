import { AppError } from '@chorus/services';
import {
  ForbiddenKeyError,
  isForbiddenKey,
  issuePath,
  parseJsonSafely,
  safeRecord,
} from '@chorus/validators';
import type { ZodType } from 'zod';
import { readCapped } from '../server/body-limit';
import { refuseDeepJson } from '../server/json-depth';
import { reservedKey } from '../server/reserved-keys';
import { unwrap, type SchemaDef } from '../trpc/internals';

/** An array of strings, numbers or booleans: what repeated form keys can carry. */
const isFormArray = (def: SchemaDef | undefined) =>
  def?.type === 'array' && unwrap(def.element)?.shape === undefined;

/**
 * The input's array fields, as form keys (`tags`, `settings[scopes]`): the fields a form body
 * gives as repeated keys (`tags=a&tags=b`, or `tags[]=a&tags[]=b`). Arrays of objects (a batch
 * of events) have no form: they take JSON.
 */
export function arrayFields(schema: ZodType | undefined): string[] {
  const fields: string[] = [];
  for (const [name, field] of Object.entries(unwrap(schema)?.shape ?? {})) {
    const def = unwrap(field);
    if (isFormArray(def)) fields.push(name);
    for (const [child, inner] of Object.entries(def?.shape ?? {}))
      if (isFormArray(unwrap(inner))) fields.push(`${name}[${child}]`);
  }
  return fields;
}

/**
 * A number as a query or a form writes one: decimal digits, a sign and a fraction at most.
 * `Number` also reads `0x10`, `1e3`, ` 2` and `Infinity`, which no list means as a page or
 * a limit: those stay text, and the schema refuses them (400 `validation_error`).
 */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * A key's values as the field's type: an array field takes them all; any other field one. A
 * field of the input given more than once (`limit=1&limit=2`) is refused, as the OAuth
 * endpoints refuse a repeated parameter: taking either value would guess at what the client
 * meant. A key the input does not name is dropped by the schema whatever it holds.
 */
function convertValue(field: string, values: string[], def: SchemaDef | undefined): unknown {
  if (def?.type === 'array')
    return values.map((v) => convertValue(field, [v], unwrap(def.element)));
  if (def !== undefined && values.length > 1) throw givenTwice(field);
  const last = values[values.length - 1] ?? '';
  switch (def?.type) {
    case 'number':
      return DECIMAL.test(last) ? Number(last) : last;
    case 'boolean':
      return last === 'true' ? true : last === 'false' ? false : last;
    default:
      return last;
  }
}

const givenTwice = (field: string) =>
  new AppError('validation_error', 'The request is not valid.', {
    issues: [{ path: issuePath([field]), message: 'Given more than once.' }],
  });

/**
 * A form-encoded body as the JSON the procedure expects: the input schema says which keys are
 * arrays (repeated keys), numbers and booleans; `settings[twoFactorAuth]` addresses a nested field.
 */
export function formToJson(params: URLSearchParams, schema: ZodType | undefined) {
  const out = safeRecord<unknown>();
  const shape = unwrap(schema)?.shape ?? {};
  // Schema shapes are ordinary objects: look keys up as own properties only.
  const field = (s: Record<string, ZodType>, key: string) =>
    Object.hasOwn(s, key) ? unwrap(s[key]) : undefined;
  // `tags` and `tags[]` are one field: their values are gathered before they are converted.
  const byName = new Map<string, string[]>();
  for (const [key, value] of params) {
    const name = key.replace(/\[\]$/, '');
    const values = byName.get(name);
    if (values) values.push(value);
    else byName.set(name, [value]);
  }
  for (const [name, values] of byName) {
    const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(name);
    const [parent = name, child] = nested ? nested.slice(1) : [name];
    // Every bracketed segment counts, however deep: `constructor[prototype][role]` is refused,
    // named by its path to the first reserved segment (`constructor`; `meta[constructor]` is
    // `meta.constructor`), as a JSON body's is.
    const segments = name.split(/[[\]]+/).filter(Boolean);
    const reserved = segments.findIndex(isForbiddenKey);
    if (reserved !== -1) throw reservedKey(segments.slice(0, reserved + 1));
    if (child !== undefined) {
      const target = out[parent];
      const record = isRecord(target) ? target : (out[parent] = safeRecord<unknown>());
      const def = field(field(shape, parent)?.shape ?? {}, child);
      record[child] = convertValue(`${parent}.${child}`, values, def);
    } else {
      out[name] = convertValue(name, values, field(shape, name));
    }
  }
  return out;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The request body as JSON (docs/api.md): JSON or form-encoded, at most `limit` bytes, any
 * value at the top, for a route that reads its own body and takes more than an object (an
 * import takes an export's array as well as `{ posts }`).
 */
export async function readJsonValue(
  req: Request,
  schema: ZodType | undefined,
  limit: number,
): Promise<unknown> {
  return parseJsonValue(await readCapped(req, limit), req.headers.get('content-type'), schema);
}

/**
 * A body read by the pipeline (server/pipeline.ts, under its cap) as a JSON object: JSON or
 * form-encoded, an object at the top. Empty bodies are `{}` so optional-only inputs need no body.
 */
export function parseJsonBody(
  text: string,
  contentType: string | null,
  schema: ZodType | undefined,
): object {
  const body = parseJsonValue(text, contentType, schema);
  if (!isRecord(body)) {
    throw new AppError('validation_error', 'The request body must be a JSON object.', {
      issues: [{ path: '', message: 'Expected a JSON object.' }],
    });
  }
  return body;
}

/** `parseJsonBody` without its rule that the top is an object. */
function parseJsonValue(
  text: string,
  contentType: string | null,
  schema: ZodType | undefined,
): unknown {
  if (text.trim() === '') return {};
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded')
    return formToJson(new URLSearchParams(text), schema);
  if (type !== 'application/json' && !type?.endsWith('+json')) {
    throw new AppError(
      'unsupported_media_type',
      `Content type ${type ? `"${type}"` : '(none)'} is not accepted: send application/json or application/x-www-form-urlencoded.`,
    );
  }
  refuseDeepJson(text);
  let body: unknown;
  try {
    body = parseJsonSafely(text);
  } catch (error) {
    if (error instanceof ForbiddenKeyError) throw reservedKey(error.path);
    throw new AppError('invalid_json', 'The request body is not valid JSON.');
  }
  return body;
}
