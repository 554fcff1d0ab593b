import { eq, users, type Db } from '@chorus/db';
import type { OAuthClientRow } from './clients';
import { findClientToken } from './revocation';
import { formatScope } from './scopes';

export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id: string;
      username: string;
      sub: string;
      token_type?: 'Bearer';
      exp: number;
      iat: number;
      iss: string;
    };

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * RFC 7662: what a token is worth now. A dead token (unknown, expired, revoked, rotated,
 * another client's) is `{ active: false }` and nothing more (RFC 7662 §2.2).
 */
export async function introspectToken(opts: {
  db: Db;
  client: OAuthClientRow;
  token: string;
  issuer: string;
}): Promise<IntrospectionResponse> {
  const row = await findClientToken(opts.db, opts.client, opts.token);
  const dead = { active: false } as const;
  if (!row) return dead;
  const { token, grant } = row;
  if (token.revokedAt || token.rotatedAt || grant.revokedAt) return dead;
  if (token.expiresAt.getTime() <= Date.now()) return dead;
  const [user] = await opts.db
    .select({ email: users.email, accountId: users.accountId })
    .from(users)
    .where(eq(users.id, grant.userId));
  if (!user || user.accountId !== grant.accountId) return dead;
  return {
    active: true,
    scope: formatScope(token.scopes),
    client_id: grant.clientId,
    username: user.email,
    sub: grant.userId,
    ...(token.kind === 'access' && { token_type: 'Bearer' as const }),
    exp: seconds(token.expiresAt),
    iat: seconds(token.createdAt),
    iss: opts.issuer,
  };
}
