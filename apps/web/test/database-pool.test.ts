import { sql } from '@chorus/db';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { getDatabase } from '../src/server/database';

// The embedded PGlite serves every connection in one session (one backend): the pool's size
// shows only on a PostgreSQL server, the second pass of `npm test` (DATABASE_URL set).
const server = process.env.DATABASE_URL;

describe.skipIf(!server)("the HTTP server's database pool", () => {
  afterAll(async () => (await getDatabase()).close());

  it('opens at most DATABASE_POOL_MAX connections however many queries wait', async () => {
    vi.stubEnv('DATABASE_POOL_MAX', '2');
    const { db } = await getDatabase();
    const backends = await Promise.all(
      Array.from({ length: 6 }, () =>
        db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid, pg_sleep(0.2)`),
      ),
    );
    const pids = new Set(backends.map((rows) => [...rows][0]?.pid));
    expect(pids.size).toBe(2);
  });
});
