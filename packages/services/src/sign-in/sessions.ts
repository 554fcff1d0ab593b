import { endedSessions, eq, lt, sql, users, type Db } from '@chorus/db';

/** Ends one dashboard session (sign-out): remembered until it would have expired anyway. */
export async function endSession(opts: {
  db: Db;
  userId: string;
  sessionId: string;
  expiresAt: Date;
}) {
  const { db, userId, sessionId, expiresAt } = opts;
  await db.transaction(async (tx) => {
    // Housekeeping on the way: sessions past their expiry need no remembering.
    await tx.delete(endedSessions).where(lt(endedSessions.expiresAt, sql`now()`));
    await tx.insert(endedSessions).values({ sessionId, userId, expiresAt }).onConflictDoNothing();
  });
}

/**
 * Ends every dashboard session of the user ("sign out everywhere", a password or role change):
 * sessions carry the generation they were signed in under, and this raises it.
 */
export async function endSessions(opts: { db: Db; userId: string }) {
  await opts.db
    .update(users)
    .set({ sessionGeneration: sql`${users.sessionGeneration} + 1` })
    .where(eq(users.id, opts.userId));
}
