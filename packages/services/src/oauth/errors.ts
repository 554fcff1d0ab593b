/**
 * Errors of the authorization server, in RFC 6749's vocabulary (RFC 6749 §4.1.2.1 for the
 * authorize endpoint, RFC 6749 §5.2 for the token endpoint), because OAuth client libraries
 * act on these codes.
 * They are not AppErrors: they never take the REST envelope.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error';

export class OAuthError extends Error {
  override readonly name = 'OAuthError';

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** Set when refused for too many failures: answered 429 with Retry-After. */
    readonly retryAt?: Date,
  ) {
    super(description);
  }

  /** RFC 6749 §5.2: 401 for a failed client authentication, 400 otherwise; 429 when throttled. */
  get status(): 400 | 401 | 429 {
    if (this.retryAt) return 429;
    return this.error === 'invalid_client' ? 401 : 400;
  }

  toJSON() {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
