import type { ProviderContext, ProviderCredentials } from '../../provider';
import { ProviderError } from '../common/provider-error';
import { procedure, xrpcError } from './xrpc';

/**
 * Bluesky sessions (com.atproto.server.createSession / refreshSession) as `ProviderCredentials`:
 * `accessToken` is the access JWT, `refreshToken` the refresh JWT, `expiresAt` the access JWT's
 * expiry, and `extra` holds `did`, `handle`, `serviceUrl` and the app password, so that a
 * session whose refresh token has lapsed is opened again without asking the person.
 *
 * At connect the engine passes the key as given: `accessToken` is the app password and
 * `extra.handle` the handle (no refresh token); `session` turns that into a session.
 */

interface SessionAnswer {
  accessJwt: string;
  refreshJwt: string;
  did: string;
  handle: string;
  didDoc?: { service?: { id?: string; serviceEndpoint?: unknown }[] };
}

/** The grant is gone (app password revoked, account taken down): the person must reconnect. */
const revoked = (message: string) => new ProviderError({ class: 'revoked', message });

/** Errors by which a PDS refuses credentials, as opposed to failing to answer. */
const AUTH_ERRORS = new Set([
  'ExpiredToken',
  'InvalidToken',
  'AuthenticationRequired',
  'AuthMissing',
  'AccountTakedown',
  'AccountDeactivated',
]);

export function isAuthRefusal(error: unknown): boolean {
  const xrpc = xrpcError(error);
  return xrpc !== undefined && AUTH_ERRORS.has(xrpc.name);
}

/** The `exp` of a JWT as ISO 8601 (read, not verified: the PDS verifies its own tokens). */
function jwtExpiry(jwt: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());
    return typeof payload.exp === 'number' ? new Date(payload.exp * 1000).toISOString() : undefined;
  } catch {
    return undefined;
  }
}

function credentialsOf(
  answer: SessionAnswer,
  context: ProviderContext,
  appPassword: string | undefined,
): ProviderCredentials {
  const expiresAt = jwtExpiry(answer.accessJwt);
  return {
    accessToken: answer.accessJwt,
    refreshToken: answer.refreshJwt,
    ...(expiresAt ? { expiresAt } : {}),
    extra: {
      did: answer.did,
      handle: answer.handle,
      serviceUrl: context.apiUrl,
      ...(appPassword ? { appPassword } : {}),
    },
  };
}

/** Opens a session with a handle (or DID) and an app password; refusal means revoked. */
export async function login(
  identifier: string,
  appPassword: string,
  context: ProviderContext,
): Promise<ProviderCredentials> {
  try {
    const answer = await procedure<SessionAnswer>(context, 'com.atproto.server.createSession', {
      identifier: identifier.replace(/^@/, ''),
      password: appPassword,
    });
    return credentialsOf(answer, context, appPassword);
  } catch (error) {
    if (!isAuthRefusal(error)) throw error;
    throw revoked(xrpcError(error)?.message ?? 'The app password was refused.');
  }
}

/** What calls on the account's behalf need. */
export interface Session {
  accessJwt: string;
  did: string;
}

/** The session of these credentials, opened first when they are the key stored at connect. */
export async function session(
  credentials: ProviderCredentials,
  context: ProviderContext,
): Promise<Session & { credentials: ProviderCredentials }> {
  const opened =
    credentials.refreshToken && credentials.extra?.did
      ? credentials
      : await login(
          credentials.extra?.handle ?? credentials.extra?.did ?? '',
          credentials.accessToken,
          context,
        );
  return { accessJwt: opened.accessToken, did: opened.extra?.did ?? '', credentials: opened };
}

/**
 * A new session from the refresh JWT; when the PDS no longer takes it (expired after months
 * unused, or revoked), a new login with the stored app password; `revoked` when that is
 * refused too.
 */
export async function refreshSession(
  credentials: ProviderCredentials,
  context: ProviderContext,
): Promise<ProviderCredentials> {
  const appPassword = credentials.extra?.appPassword;
  if (credentials.refreshToken) {
    try {
      const answer = await procedure<SessionAnswer>(
        context,
        'com.atproto.server.refreshSession',
        undefined,
        { token: credentials.refreshToken },
      );
      return credentialsOf(answer, context, appPassword);
    } catch (error) {
      if (!isAuthRefusal(error)) throw error;
      if (!appPassword) throw revoked(xrpcError(error)?.message ?? 'Session ended.');
    }
  }
  const identifier = credentials.extra?.did ?? credentials.extra?.handle;
  if (!identifier || !appPassword) throw revoked('The Bluesky session has ended.');
  return login(identifier, appPassword, context);
}
