import { OAuthError, type ClientCredentials } from '@chorus/services';
import {
  ForbiddenKeyError,
  isForbiddenKey,
  issuePath,
  parseJsonSafely,
  safeRecord,
} from '@chorus/validators';
import { echoedPath } from '../server/errors';

/** Token, revocation and introspection requests are small; anything larger is not one. */
export const MAX_BODY = 64 * 1024;

/**
 * The parameters of a POST to an OAuth endpoint, from its body as the pipeline read it (at most
 * MAX_BODY): `application/x-www-form-urlencoded` as RFC 6749 says, or JSON as the API spec
 * says. A repeated parameter is refused (RFC 6749 §3.2).
 */
export function readParams(
  text: string,
  contentType: string | null,
): Record<string, string | undefined> {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(text);
    const out = safeRecord<string>();
    for (const name of new Set(form.keys())) {
      if (isForbiddenKey(name)) throw forbidden(name);
      const values = form.getAll(name);
      if (values.length > 1) {
        throw new OAuthError('invalid_request', `The ${named(name)} parameter is repeated.`);
      }
      // RFC 6749 §3.1: a parameter sent without a value is treated as omitted.
      if (values[0]) out[name] = values[0];
    }
    return withoutNul(out);
  }
  if (type === 'application/json') {
    let body: unknown;
    try {
      body = parseJsonSafely(text);
    } catch (error) {
      if (error instanceof ForbiddenKeyError) throw forbidden(error.key);
      throw new OAuthError('invalid_request', 'The request body is not valid JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new OAuthError('invalid_request', 'The request body must be a JSON object.');
    }
    const out = safeRecord<string>();
    for (const [name, value] of Object.entries(body)) {
      if (value === null || value === undefined || value === '') continue;
      if (typeof value !== 'string') {
        throw new OAuthError('invalid_request', `The ${named(name)} parameter must be a string.`);
      }
      out[name] = value;
    }
    return withoutNul(out);
  }
  throw new OAuthError(
    'invalid_request',
    'Send the parameters as application/x-www-form-urlencoded or application/json.',
  );
}

/** PostgreSQL text cannot hold U+0000: such a parameter is malformed, never a database error. */
function withoutNul(params: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(params)) {
    if (name.includes('\0') || value.includes('\0')) {
      throw new OAuthError('invalid_request', 'Parameters must not contain NUL characters.');
    }
  }
  return params;
}

/**
 * A parameter's name as an error echoes it: a client's own text, so its control characters
 * escaped (a NUL in a name is refused, but the name is echoed first) and at most 100 characters.
 */
const named = (name: string) => echoedPath(issuePath([name]), 100);

const forbidden = (name: string) =>
  new OAuthError('invalid_request', `The ${name} parameter is not allowed.`);

/**
 * Whether the request authenticates with HTTP Basic, well-formed or not: any failure then
 * answers with a Basic challenge (RFC 6749 §5.2, docs/oauth.md), even one about the header.
 */
export const usesBasic = (req: Request) =>
  /^Basic(?:\s|$)/i.test(req.headers.get('authorization') ?? '');

/**
 * The client's credentials, from HTTP Basic (RFC 6749 §2.3.1, id and secret form-encoded
 * first) or from the body; using both at once is refused (RFC 6749 §2.3).
 */
export function clientCredentials(
  req: Request,
  params: Record<string, string | undefined>,
): ClientCredentials {
  const header = req.headers.get('authorization');
  if (header && !usesBasic(req)) {
    throw new OAuthError(
      'invalid_client',
      'Use HTTP Basic or the request body for client credentials.',
    );
  }
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (header && !match) {
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.');
  }
  if (!match?.[1]) {
    return { clientId: params.client_id, clientSecret: params.client_secret };
  }
  if (params.client_secret !== undefined) {
    throw new OAuthError('invalid_request', 'Send client credentials in one way only.');
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.includes('\0')) {
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.');
  }
  let clientId: string;
  let clientSecret: string;
  try {
    clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  } catch {
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.');
  }
  if (clientId.includes('\0') || clientSecret.includes('\0')) {
    throw new OAuthError('invalid_client', 'Malformed HTTP Basic credentials.');
  }
  if (params.client_id !== undefined && params.client_id !== clientId) {
    throw new OAuthError('invalid_request', 'client_id differs from the HTTP Basic user name.');
  }
  return { clientId, clientSecret: clientSecret || undefined };
}
