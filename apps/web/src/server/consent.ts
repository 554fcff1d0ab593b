import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '@chorus/auth';
import type { AuthorizationRequest } from '@chorus/services';
import { authSecret } from './auth-secret';

/**
 * The consent form's CSRF token: an HMAC, under the session secret, of the session's id and
 * the exact request being approved. A page on another site cannot know it, and a token for
 * one request approves no other. SameSite cookies alone would not be enough (docs/security.md).
 */
export function consentToken(sessionId: string, request: AuthorizationRequest): string {
  const subject = [
    'oauth-consent',
    sessionId,
    request.client.id,
    request.redirectUri,
    request.scopes.join(' '),
    request.state ?? '',
    request.codeChallenge ?? '',
  ].join('\n');
  return createHmac('sha256', authSecret()).update(subject).digest('base64url');
}

export const consentTokenMatches = (
  given: string | null,
  sessionId: string,
  request: AuthorizationRequest,
) => given !== null && constantTimeEqual(given, consentToken(sessionId, request));
