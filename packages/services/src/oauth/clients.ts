import {
  constantTimeEqual,
  generateOAuthSecret,
  hashToken,
  isOAuthSecret,
  type Principal,
} from '@chorus/auth';
import { and, desc, eq, oauthClients, sql, type Db } from '@chorus/db';
import type { CreateOAuthClientInput, OAuthClient, Scope } from '@chorus/validators';
import { notFound } from '../shared/errors';
import { newId } from '../shared/ids';
import { blockedUntil, clearFailures, recordFailure, SIGN_IN_RULES } from '../sign-in/throttle';
import { OAuthError } from './errors';

export type OAuthClientRow = typeof oauthClients.$inferSelect;

/** What may be shown of a client: never its secret or the secret's hash. */
export const toOAuthClient = (row: OAuthClientRow): OAuthClient => ({
  id: row.id,
  name: row.name,
  redirectUris: row.redirectUris,
  scopes: row.scopes as Scope[],
  confidential: row.confidential,
  secretLastFour: row.secretLastFour,
  createdAt: row.createdAt.toISOString(),
});

/**
 * Registers an application of the principal's account (an admin's, checked by the caller's
 * tier). A confidential client's secret is returned here and never again.
 */
export async function createOAuthClient(opts: {
  db: Db;
  principal: Principal;
  input: CreateOAuthClientInput;
}) {
  const { db, principal, input } = opts;
  const secret = input.confidential ? generateOAuthSecret('clientSecret') : undefined;
  const [row] = await db
    .insert(oauthClients)
    .values({
      id: newId('app'),
      accountId: principal.accountId,
      name: input.name,
      redirectUris: [...new Set(input.redirectUris)],
      scopes: [...new Set(input.scopes)],
      confidential: input.confidential,
      secretHash: secret?.hash,
      secretLastFour: secret?.lastFour,
      createdBy: principal.userId,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return { client: toOAuthClient(row), clientSecret: secret?.secret ?? null };
}

export async function listOAuthClients(opts: { db: Db; principal: Principal }) {
  const rows = await opts.db
    .select()
    .from(oauthClients)
    .where(eq(oauthClients.accountId, opts.principal.accountId))
    .orderBy(desc(oauthClients.createdAt), desc(oauthClients.id));
  return rows.map(toOAuthClient);
}

const ofAccount = (principal: Principal, clientId: string) =>
  and(eq(oauthClients.id, clientId), eq(oauthClients.accountId, principal.accountId));

/**
 * A new secret for a confidential client; the old one stops working at once. Tokens already
 * issued stay valid: rotating answers a leaked secret, not a leaked token.
 */
export async function rotateOAuthClientSecret(opts: {
  db: Db;
  principal: Principal;
  clientId: string;
}) {
  const secret = generateOAuthSecret('clientSecret');
  const [row] = await opts.db
    .update(oauthClients)
    .set({ secretHash: secret.hash, secretLastFour: secret.lastFour, updatedAt: sql`now()` })
    .where(and(ofAccount(opts.principal, opts.clientId), eq(oauthClients.confidential, true)))
    .returning();
  if (!row) throw notFound('Confidential OAuth application');
  return { client: toOAuthClient(row), clientSecret: secret.secret };
}

/** Deletes a client with its codes, grants and tokens (they cascade). */
export async function deleteOAuthClient(opts: { db: Db; principal: Principal; clientId: string }) {
  const deleted = await opts.db
    .delete(oauthClients)
    .where(ofAccount(opts.principal, opts.clientId))
    .returning({ id: oauthClients.id });
  if (deleted.length === 0) throw notFound('OAuth application');
}

export async function findOAuthClient(db: Db, clientId: string) {
  if (!/^app_[0-9A-Z]{26}$/.test(clientId)) return undefined;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  return row;
}

/** How the client presented itself at the token, revocation or introspection endpoint. */
export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

/**
 * Client authentication (RFC 6749 §2.3): a confidential client proves itself with its
 * secret; a public client names itself and has no secret to send. Any failure is
 * `invalid_client`, whatever went wrong, so that nothing is learnt about which clients exist.
 */
export async function authenticateClient(
  db: Db,
  credentials: ClientCredentials,
  /** The caller's address: failures are throttled per (client, address) like sign-ins. */
  clientIp = 'unknown',
): Promise<OAuthClientRow> {
  const keys = {
    pair: `client:${credentials.clientId ?? ''}|${clientIp}`,
    address: `address:${clientIp}`,
  };
  const until = await blockedUntil(db, Object.values(keys));
  if (until) {
    throw new OAuthError(
      'invalid_request',
      'Too many failed client authentications from this address; retry later.',
      until,
    );
  }
  try {
    const client = await checkClient(db, credentials);
    await clearFailures(db, keys.pair);
    return client;
  } catch (error) {
    if (error instanceof OAuthError) {
      await recordFailure(db, keys.pair, SIGN_IN_RULES.pair);
      await recordFailure(db, keys.address, SIGN_IN_RULES.address);
    }
    throw error;
  }
}

async function checkClient(
  db: Db,
  { clientId, clientSecret }: ClientCredentials,
): Promise<OAuthClientRow> {
  const failed = () => new OAuthError('invalid_client', 'Client authentication failed.');
  if (!clientId) throw failed();
  const client = await findOAuthClient(db, clientId);
  if (!client) throw failed();
  if (!client.confidential) {
    if (clientSecret) throw failed();
    return client;
  }
  if (!clientSecret || !client.secretHash || !isOAuthSecret('clientSecret', clientSecret)) {
    throw failed();
  }
  if (!constantTimeEqual(hashToken(clientSecret), client.secretHash)) throw failed();
  return client;
}
