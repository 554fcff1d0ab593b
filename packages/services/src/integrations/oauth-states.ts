import { hashToken } from '@chorus/auth';
import { and, eq, integrationOauthStates, lte, type Db } from '@chorus/db';
import { randomBytes } from 'node:crypto';
import { AppError } from '../shared/errors';
import { seal, unseal } from './encryption';

/** How long a pending OAuth connection waits for its callback (docs/integrations.md). */
export const STATE_TTL_MS = 10 * 60 * 1000;

/** The PKCE verifier is encrypted, bound to its state, so a database read cannot finish a flow. */
const verifierContext = (stateHash: string) => `oauth-state:${stateHash}`;

/** Pending connections past their 10 minutes are dropped: they can never complete. */
export async function dropExpiredStates(db: Db, now: Date) {
  await db.delete(integrationOauthStates).where(lte(integrationOauthStates.expiresAt, now));
}

/** Records a pending connection; returns the `state` to send (only its hash is stored). */
export async function createState(opts: {
  db: Db;
  accountId: string;
  userId: string;
  integrationId: string;
  redirectUrl: string;
  callbackUrl: string;
  verifier: string;
  /** The user's own server the grant is asked of (a Mastodon instance). */
  serviceUrl?: string;
  now: Date;
}): Promise<string> {
  const state = randomBytes(32).toString('base64url');
  const stateHash = hashToken(state);
  await opts.db.insert(integrationOauthStates).values({
    stateHash,
    accountId: opts.accountId,
    userId: opts.userId,
    integrationId: opts.integrationId,
    redirectUrl: opts.redirectUrl,
    callbackUrl: opts.callbackUrl,
    codeVerifier: seal(opts.verifier, verifierContext(stateHash)),
    serviceUrl: opts.serviceUrl ?? null,
    expiresAt: new Date(opts.now.getTime() + STATE_TTL_MS),
  });
  return state;
}

const invalidState = (message: string) => new AppError('invalid_state', message);

/**
 * Takes the pending connection of `state` for `integrationId`, or 400 invalid_state. The row is
 * deleted by the same statement that reads it, so of two concurrent callbacks with one state,
 * exactly one gets it.
 */
export async function consumeState(opts: {
  db: Db;
  integrationId: string;
  state: string | undefined;
  now: Date;
}) {
  const { db, integrationId, state, now } = opts;
  if (!state) throw invalidState('The state parameter is missing.');
  const stateHash = hashToken(state);
  const [row] = await db
    .delete(integrationOauthStates)
    .where(
      and(
        eq(integrationOauthStates.stateHash, stateHash),
        eq(integrationOauthStates.integrationId, integrationId),
      ),
    )
    .returning();
  if (!row || row.expiresAt.getTime() <= now.getTime()) {
    throw invalidState(
      'The state is unknown, expired or already used: start the connection again.',
    );
  }
  return { ...row, verifier: unseal(row.codeVerifier, verifierContext(stateHash)) };
}
