import { randomBytes } from 'node:crypto';
import { and, eq, idempotencyKeys, lte, sql, type Db } from '@chorus/db';
import { AppError } from './errors';

/** How long the first answer for a key is kept (decisions §15). */
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
  key: string;
}

const byKey = ({ accountId, key }: KeyRef) =>
  and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key));

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
      .values({ accountId: opts.accountId, key: opts.key, ...fresh })
      .onConflictDoUpdate({
        target: [idempotencyKeys.accountId, idempotencyKeys.key],
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
      return { kind: 'replay', response: { status: row.responseStatus, body: row.responseBody } };
    }
    break;
  }
  throw new AppError(
    'idempotency_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );
}

/** Keeps the answer of the run that holds `lockToken`, for replays. */
export async function completeIdempotencyKey(
  opts: KeyRef & { lockToken: string; response: StoredResponse },
) {
  await opts.db
    .update(idempotencyKeys)
    .set({ responseStatus: opts.response.status, responseBody: opts.response.body })
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
