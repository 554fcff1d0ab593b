import { AppError } from '@chorus/services';
import { ForbiddenKeyError, parseJsonSafely } from '@chorus/validators';
import type { ZodType } from 'zod';
import { readCapped } from '../server/body-limit';
import { refuseDeepJson } from '../server/json-depth';
import { reservedKey } from '../server/reserved-keys';
import { formToJson } from './form';

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

/** The charsets a body may declare: UTF-8, the only one the API reads (docs/api.md). */
const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * Which of the two body types the API reads a Content-Type names, or null: `application/json`
 * or `application/x-www-form-urlencoded`, any case, with no parameter but a UTF-8 charset.
 * Other JSON-like types (`application/vnd.api+json`) and other charsets are not read as JSON:
 * the request is refused (415) rather than read against what its sender declared.
 */
export function bodyType(contentType: string | null): 'json' | 'form' | null {
  const [essence = '', ...parameters] = (contentType ?? '').split(';');
  const type = essence.trim().toLowerCase();
  const kind =
    type === 'application/json'
      ? 'json'
      : type === 'application/x-www-form-urlencoded'
        ? 'form'
        : null;
  const utf8 = parameters.every((parameter) => {
    if (parameter.trim() === '') return true;
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim().toLowerCase());
    return name === 'charset' && UTF8.has(value.replace(/^"(.*)"$/, '$1'));
  });
  return utf8 ? kind : null;
}

/** The Content-Type as sent, for a refusal's message. */
export const sentType = (contentType: string | null) =>
  contentType?.trim() ? `"${contentType.trim().slice(0, 100)}"` : '(none)';

/** `parseJsonBody` without its rule that the top is an object. */
function parseJsonValue(
  text: string,
  contentType: string | null,
  schema: ZodType | undefined,
): unknown {
  if (text.trim() === '') return {};
  const type = bodyType(contentType);
  if (type === 'form') return formToJson(new URLSearchParams(text), schema);
  if (type !== 'json') {
    throw new AppError(
      'unsupported_media_type',
      `Content type ${sentType(contentType)} is not accepted: send application/json (UTF-8) or application/x-www-form-urlencoded.`,
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
