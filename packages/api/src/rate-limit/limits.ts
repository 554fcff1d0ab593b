import type { Principal } from '@chorus/auth';

/** The sliding window of every budget (docs/rate-limits-and-idempotency.md). */
export const WINDOW_MS = 60_000;

export type Tier = Principal['tier'];

/** Requests per window. Defaults are docs/rate-limits-and-idempotency.md; a deployment overrides them (config.ts). */
export interface RateLimits {
  /** API-key budgets per account, by tier. */
  tiers: Record<Tier, { read: number; write: number }>;
  /** An OAuth token's budget is this many times the API-key figure of the account's tier. */
  oauthMultiplier: number;
  /** Unauthenticated requests, per client IP, reads and writes together. */
  anonymous: number;
  /** A confidential OAuth client's requests to the machine endpoints, per client. */
  oauthClient: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  tiers: {
    free: { read: 600, write: 120 },
    pro: { read: 3000, write: 600 },
    enterprise: { read: 12000, write: 2400 },
  },
  oauthMultiplier: 2,
  anonymous: 60,
  oauthClient: 600,
};

/** A partial override, as RATE_LIMITS or a test gives it. */
export interface RateLimitsOverride {
  free?: { read?: number; write?: number };
  pro?: { read?: number; write?: number };
  enterprise?: { read?: number; write?: number };
  oauthMultiplier?: number;
  anonymous?: number;
  oauthClient?: number;
}

export function withOverride(override: RateLimitsOverride = {}, base = DEFAULT_RATE_LIMITS) {
  const tier = (name: Tier) => ({ ...base.tiers[name], ...override[name] });
  return {
    tiers: { free: tier('free'), pro: tier('pro'), enterprise: tier('enterprise') },
    oauthMultiplier: override.oauthMultiplier ?? base.oauthMultiplier,
    anonymous: override.anonymous ?? base.anonymous,
    oauthClient: override.oauthClient ?? base.oauthClient,
  } satisfies RateLimits;
}

/** One counter: its key (without the deployment prefix) and its limit per window. */
export interface Bucket {
  key: string;
  limit: number;
}

/** GET and HEAD are reads; every other method is a write (docs/rate-limits-and-idempotency.md). */
export const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * The budget a principal's request is counted against: API keys share one per account; an
 * OAuth token's is per (account, user, client); dashboard sessions, per (account, user).
 */
export function principalBucket(principal: Principal, method: string, limits: RateLimits): Bucket {
  const kind = isRead(method) ? 'read' : 'write';
  const figure = limits.tiers[principal.tier][kind];
  const { credential } = principal;
  const account = `acct:${principal.accountId}`;
  switch (credential.kind) {
    case 'api_key':
      return { key: `${account}:key:${kind}`, limit: figure };
    case 'oauth': {
      // The client, not the token: tokens rotate hourly and must not renew the budget.
      const client = credential.clientId ?? credential.id;
      return {
        key: `${account}:user:${principal.userId}:oauth:${client}:${kind}`,
        limit: Math.round(figure * limits.oauthMultiplier),
      };
    }
    case 'session':
      return { key: `${account}:user:${principal.userId}:session:${kind}`, limit: figure };
  }
}

/** Unauthenticated requests, counted per client IP. */
export const anonymousBucket = (clientIp: string, limits: RateLimits): Bucket => ({
  key: `ip:${clientIp}`,
  limit: limits.anonymous,
});

/**
 * A confidential OAuth client that proved itself at the token, revocation or introspection
 * endpoint: its own budget, wherever it calls from (a partner's servers behind one address
 * refresh tokens for all their users). Public clients cannot prove who they are: per address.
 */
export const oauthClientBucket = (clientId: string, limits: RateLimits): Bucket => ({
  key: `oauth-client:${clientId}`,
  limit: limits.oauthClient,
});
