import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (m=19 MiB, t=2, p=1); Algorithm 2 is argon2id.
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Each hash takes 19 MiB: at most this many run at once per process, the rest wait in line,
 * so a flood of sign-ins queues instead of exhausting memory.
 */
export const PASSWORD_HASH_CONCURRENCY = 4;

let running = 0;
const waiting: (() => void)[] = [];

async function queued<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PASSWORD_HASH_CONCURRENCY) {
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next in line, or give it back.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** Hashings running and waiting right now. */
export const passwordHashing = () => ({ running, waiting: waiting.length });

export const hashPassword = (password: string) => queued(() => hash(password, OPTIONS));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await queued(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}
