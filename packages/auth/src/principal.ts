import type { Role, Scope } from '@chorus/validators';

/** Who makes a request (docs/security.md): every procedure receives one. */
export interface Principal {
  accountId: string;
  userId: string;
  role: Role;
  tier: 'free' | 'pro' | 'enterprise';
  credential: {
    kind: 'api_key' | 'oauth' | 'session';
    id: string;
    /** The OAuth client (application) of an OAuth token: its rate-limit budget is per client. */
    clientId?: string;
  };
  scopes: readonly Scope[];
}
