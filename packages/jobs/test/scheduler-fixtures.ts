import {
  and,
  count,
  eq,
  events,
  inArray,
  openDatabase,
  posts,
  sql,
  type Database,
} from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, newId } from '@chorus/services';
import { afterAll, beforeAll } from 'vitest';
import { publishDuePostsJob, startWorker, type Worker } from '../src';

const timing = { intervalMs: 200, pollingIntervalSeconds: 0.5 };

/**
 * The scheduler's tests' world: a database opened twice (as two processes would), an account,
 * and up to two scheduler workers, one on each pool, stopped after the file's tests.
 */
export function twoSchedulers(accountName: string) {
  let database: Database & { url: string };
  let second: Database;
  const workers: Worker[] = [];
  const account = { accountId: '', adminId: '' };

  beforeAll(async () => {
    database = await createTestServerDatabase();
    second = await openDatabase({ url: database.url, max: 5 });
    const slug = accountName.toLowerCase();
    Object.assign(
      account,
      await createAccount(database.db, {
        name: accountName,
        admin: { name: 'Ada', email: `ada@${slug}.test`, password: 'correct horse battery' },
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await second?.close();
    await database?.close();
  });

  return {
    get db() {
      return database.db;
    },
    /** Inserts `n` scheduled posts of the account with `fields`; answers their ids. */
    async insertScheduled(n: number, fields: Partial<typeof posts.$inferInsert>) {
      const rows = Array.from({ length: n }, (_, i) => ({
        id: newId('post'),
        accountId: account.accountId,
        authorId: account.adminId,
        title: `Post ${i}`,
        status: 'scheduled' as const,
        ...fields,
      }));
      await database.db.insert(posts).values(rows);
      return rows.map((row) => row.id);
    },
    /** Both workers at once, as web and worker processes start on a fresh deployment. */
    async startBoth() {
      workers.push(
        ...(await Promise.all(
          [database.db, second.db].map((db) =>
            startWorker({
              databaseUrl: database.url,
              db,
              definitions: [publishDuePostsJob(timing)],
            }),
          ),
        )),
      );
    },
    /** `post.published` events of these posts, counted per post. */
    publishedEvents: (ids: string[]) =>
      database.db
        .select({ postId: sql<string>`${events.payload}->'data'->'object'->>'id'`, n: count() })
        .from(events)
        .where(
          and(
            eq(events.type, 'post.published'),
            inArray(sql`${events.payload}->'data'->'object'->>'id'`, ids),
          ),
        )
        .groupBy(sql`1`),
  };
}
