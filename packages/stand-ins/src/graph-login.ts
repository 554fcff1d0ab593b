import {
  GraphError,
  graphId,
  required,
  text,
  type GraphAnswer,
  type GraphRequest,
  type GraphParams,
} from './graph-kit';
import { TokenBook, type TokenEnd } from './graph-tokens';

/** Sixty days, as Meta's long-lived tokens last. */
const LONG_LIVED_SECONDS = 5_184_000;

/**
 * The long-lived tokens of Instagram and Threads: a short-lived token exchanged for a long-lived
 * one (`GET /access_token?grant_type=ig_exchange_token|th_exchange_token&client_secret=…`), and
 * a long-lived one refreshed for sixty more days
 * (`GET /refresh_access_token?grant_type=ig_refresh_token|th_refresh_token`).
 */
/** An Instagram account or a Threads profile: who a token stands for. */
export interface Profile {
  id: string;
  username: string;
  name: string;
}

export function longLivedTokens(options: { secret: string; prefix: 'ig' | 'th' }) {
  const { secret, prefix } = options;
  const tokens = new TokenBook<Profile>();
  const longLived = new Set<string>();
  const grant = (params: GraphParams, type: string) => {
    if (text(params, 'grant_type') !== type) {
      throw new GraphError(400, 100, `(#100) grant_type must be ${type}`);
    }
  };
  const issue = (principal: Profile) => {
    const token = `${prefix}-long-${graphId()}`;
    tokens.issue(token, principal);
    longLived.add(token);
    return { access_token: token, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS };
  };
  const exchange = (params: GraphParams) => {
    grant(params, `${prefix}_exchange_token`);
    if (text(params, 'client_secret') !== secret) {
      throw new GraphError(400, 101, 'Error validating client secret.');
    }
    return issue(tokens.check(required(params, 'access_token')));
  };
  const refresh = (params: GraphParams) => {
    grant(params, `${prefix}_refresh_token`);
    const token = required(params, 'access_token');
    const principal = tokens.check(token);
    if (!longLived.has(token)) {
      throw new GraphError(
        400,
        190,
        'Error validating access token: only long-lived tokens can be refreshed',
      );
    }
    return issue(principal);
  };
  return {
    check: (token: string | undefined) => tokens.check(token),
    /** Answers the two token endpoints; `undefined` for every other request. */
    answer(req: GraphRequest): GraphAnswer | undefined {
      const [first, ...rest] = req.segments;
      if (req.method !== 'GET' || rest.length > 0) return undefined;
      if (first === 'access_token') return { body: exchange(req.params) };
      if (first === 'refresh_access_token') return { body: refresh(req.params) };
      return undefined;
    },
    /** A profile and its long-lived token (as a connected channel holds it). */
    add(profile: { token: string; id?: string; username: string; name?: string }): Profile {
      const entry = {
        id: profile.id ?? graphId(),
        username: profile.username,
        name: profile.name ?? profile.username,
      };
      tokens.issue(profile.token, entry);
      longLived.add(profile.token);
      return entry;
    },
    /** Switches for tests, spread into the stand-in. */
    switches: {
      /** A short-lived token (as the OAuth code exchange gives) of a principal already added. */
      addShortLivedToken: (token: string, owner: Profile) => tokens.issue(token, owner),
      /** The token stops working (expired, app removed, password changed…). */
      endToken: (token: string, reason: TokenEnd) => tokens.end(token, reason),
    },
  };
}
