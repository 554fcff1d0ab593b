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
