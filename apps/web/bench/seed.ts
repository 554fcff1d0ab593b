import { randomBytes } from 'node:crypto';
import { hashPassword } from '@chorus/auth';
import { users, type Db } from '@chorus/db';
import { createAccount, createApiKey } from '@chorus/services';

/** One account with `count` users (the admin among them) and an admin API key. */
export async function seedAccount(db: Db, count: number) {
  const tag = randomBytes(4).toString('hex');
  const { accountId, adminId } = await createAccount(db, {
    name: 'Bench',
    admin: { email: `admin-${tag}@bench.test`, password: 'benchmark password' },
  });
  const { secret } = await createApiKey({
    db,
    userId: adminId,
    name: 'bench',
    scopes: ['read', 'write'],
    environment: 'live',
  });
  // One hash for all: hashing a thousand passwords would only slow the set-up.
  const passwordHash = await hashPassword('benchmark password');
  const now = Date.now();
  for (let start = 1; start < count; start += 5000) {
    const batch = Array.from({ length: Math.min(5000, count - start) }, (_, i) => ({
      id: `usr_bench${tag}${start + i}`,
      accountId,
      name: `User ${start + i}`,
      email: `user-${start + i}-${tag}@bench.test`,
      passwordHash,
      role: (start + i) % 100 === 0 ? ('admin' as const) : ('user' as const),
      createdAt: new Date(now - (start + i) * 1000),
    }));
    await db.insert(users).values(batch);
  }
  return { accountId, key: secret };
}
