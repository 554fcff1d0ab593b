import { GraphError } from './graph-kit';

/**
 * Why a token stopped working, with the `error_subcode` Meta gives each case
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling#authentication-error-subcodes).
 */
const DEAD = {
  expired: {
    subcode: 463,
    message: 'Error validating access token: Session has expired. The current time is later.',
  },
  app_removed: {
    subcode: 458,
    message: 'Error validating access token: The user has not authorized application.',
  },
  checkpoint: {
    subcode: 459,
    message:
      'Error validating access token: You cannot access the app till you log in to www.facebook.com and follow the instructions given.',
  },
  password_changed: {
    subcode: 460,
    message:
      'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
  },
  logged_out: {
    subcode: 467,
    message: 'Error validating access token: The user is not logged in.',
  },
} as const;

export type TokenEnd = keyof typeof DEAD;

/** Tokens a stand-in accepts, each standing for a principal (a user, a Page, an account). */
export class TokenBook<Principal> {
  private readonly tokens = new Map<string, { principal: Principal; end?: TokenEnd }>();

  issue(token: string, principal: Principal) {
    this.tokens.set(token, { principal });
  }

  /** The token stops working for `reason` (an expired session, a revoked grant…). */
  end(token: string, reason: TokenEnd) {
    const entry = this.tokens.get(token);
    if (entry) entry.end = reason;
  }

  /** The principal behind a token, or Meta's OAuthException (code 190) for a bad one. */
  check(token: string | undefined): Principal {
    const entry = token === undefined ? undefined : this.tokens.get(token);
    if (!entry) {
      throw new GraphError(400, 190, 'Invalid OAuth access token - Cannot parse access token', {
        headers: { 'www-authenticate': 'OAuth "Facebook Platform" "invalid_token"' },
      });
    }
    if (entry.end) {
      const { subcode, message } = DEAD[entry.end];
      throw new GraphError(400, 190, message, {
        subcode,
        headers: { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message}"` },
      });
    }
    return entry.principal;
  }
}
