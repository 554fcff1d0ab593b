import { randomBytes } from 'node:crypto';
import { and, eq, idempotencyKeys, lte, sql, type Db } from '@chorus/db';
import { AppError } from './errors';
import { seal, unseal } from '../integrations/encryption';

/** How long the first answer for a key is kept (docs/rate-limits-and-idempotency.md). */
const KEEP_FOR = sql`interval '24 hours'`;

/**
 * A run not finished by then is taken for abandoned (its server died mid-request), so a retry
 * may run the request again rather than get 409 for a whole day.
 */
const ABANDONED_AFTER = sql`interval '5 minutes'`;

export interface StoredResponse {
  status: number;
  /** JSON text, or null for an empty body. */
  body: string | null;
}

export type IdempotencyClaim =
  { kind: 'run'; lockToken: string } | { kind: 'replay'; response: StoredResponse };

interface KeyRef {
  db: Db;
  accountId: string;
  /**
   * The credential the key belongs to (keys are scoped per credential): another credential
   * sending the same key names another key, and never meets this one's answer.
   */
  credential: string;
  key: string;
}

const byKey = ({ accountId, credential, key }: KeyRef) =>
  and(
    eq(idempotencyKeys.accountId, accountId),
    eq(idempotencyKeys.credential, credential),
    eq(idempotencyKeys.key, key),
  );

/**
 * Stored answers are sealed (AES-256-GCM, CHORUS_ENCRYPTION_KEY): some hold a secret shown
 * once (a webhook's `secret`), which must not lie in the table in plaintext. The key's identity
 * is the authenticated context: an answer copied onto another key does not open there.
 */
const sealContext = ({ accountId, credential, key }: KeyRef) =>
  `idempotency:${accountId}:${credential}:${key}`;

/**
 * Claims an Idempotency-Key for a request. The insert is the lock (primary key on account and
 * key), so of concurrent requests on any number of servers exactly one gets `run`. Others get
 * the kept answer (`replay`), 409 `idempotency_in_progress` while the first still runs, or
 * 400 `idempotency_key_reused` when the key came with another request (`fingerprint`).
 * Expired rows, and abandoned runs of the same request, are taken over as if absent.
 */
export async function claimIdempotencyKey(
  opts: KeyRef & { fingerprint: string },
): Promise<IdempotencyClaim> {
  const { db, fingerprint } = opts;
  // A row released between our insert and our read is gone: claim again, a bounded few times.
  for (let attempt = 0; attempt < 3; attempt++) {
    const lockToken = randomBytes(16).toString('hex');
    const fresh = { fingerprint, lockToken, expiresAt: sql`now() + ${KEEP_FOR}` };
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ accountId: opts.accountId, credential: opts.credential, key: opts.key, ...fresh })
      .onConflictDoUpdate({
        target: [idempotencyKeys.accountId, idempotencyKeys.credential, idempotencyKeys.key],
        set: {
          ...fresh,
          lockedAt: sql`now()`,
          createdAt: sql`now()`,
          responseStatus: null,
          responseBody: null,
        },
        setWhere: sql`${idempotencyKeys.expiresAt} <= now() or (${idempotencyKeys.responseStatus} is null and ${idempotencyKeys.fingerprint} = ${fingerprint} and ${idempotencyKeys.lockedAt} <= now() - ${ABANDONED_AFTER})`,
      })
      .returning({ lockToken: idempotencyKeys.lockToken });
    if (claimed.length > 0) return { kind: 'run', lockToken };

    const [row] = await db.select().from(idempotencyKeys).where(byKey(opts)).limit(1);
    if (!row) continue;
    if (row.fingerprint !== fingerprint) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request; use a new key for a new request.',
      );
    }
    if (row.responseStatus !== null) {
      const body = row.responseBody === null ? null : unsealed(row.responseBody, opts);
      return { kind: 'replay', response: { status: row.responseStatus, body } };
    }
    break;
  }
  throw new AppError(
    'idempotency_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );
}

/** A kept answer, or a clear refusal when it can no longer be read (the key changed). */
function unsealed(body: string, ref: KeyRef): string {
  try {
    return unseal(body, sealContext(ref));
  } catch {
    throw new AppError(
      'idempotency_key_reused',
      'The answer kept for this Idempotency-Key can no longer be read (the server’s encryption key changed); use a new key.',
    );
  }
}

/** Keeps the answer of the run that holds `lockToken`, for replays. */
export async function completeIdempotencyKey(
  opts: KeyRef & { lockToken: string; response: StoredResponse },
) {
  await opts.db
    .update(idempotencyKeys)
    .set({
      responseStatus: opts.response.status,
      responseBody:
        opts.response.body === null ? null : seal(opts.response.body, sealContext(opts)),
    })
    .where(and(byKey(opts), eq(idempotencyKeys.lockToken, opts.lockToken)));
}

/** Forgets the run that holds `lockToken`, so that a retry runs the request again. */
export async function releaseIdempotencyKey(opts: KeyRef & { lockToken: string }) {
  await opts.db
    .delete(idempotencyKeys)
    .where(and(byKey(opts), eq(idempotencyKeys.lockToken, opts.lockToken)));
}

/** Deletes expired keys (they are already ignored by claims). */
export async function purgeExpiredIdempotencyKeys(db: Db) {
  await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, sql`now()`));
}
