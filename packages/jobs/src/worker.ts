import { QUEUE_SCHEMA, type Db } from '@chorus/db';
import type { MediaSource } from '@chorus/services';
import PgBoss from 'pg-boss';
import type { JobDefinition } from './definition';
import { jobDefinitions } from './definitions';
import { startLane, type Lane } from './lane';

export interface WorkerOptions {
  /** The PostgreSQL server pg-boss keeps its queues on (the embedded server's URL included). */
  databaseUrl: string;
  db: Db;
  /** Where publishing reads attachments; without it, posts with media fail to publish. */
  media?: MediaSource;
  definitions?: JobDefinition[];
  /** Told about failures that no job caught (pg-boss's `error` event). */
  onError?: (error: Error) => void;
}

export interface Worker {
  boss: PgBoss;
  stop(): Promise<void>;
}

export { QUEUE_SCHEMA };

/** A pg-boss client on the database: for sending jobs without working them. */
export function createQueueClient(databaseUrl: string): PgBoss {
  return new PgBoss({
    connectionString: databaseUrl,
    schema: QUEUE_SCHEMA,
    max: 4,
    application_name: 'chorus-jobs',
  });
}

/**
 * Runs `work` again when it lost a race with another worker: pg-boss 10 creates a queue with
 * an insert plus a partition that two workers starting at once on a fresh database can
 * deadlock on (40P01) or collide on (23505). The loser retries and finds the queue made.
 */
async function retryingConflicts<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= attempts || (code !== '40P01' && code !== '23505')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
    }
  }
}

/**
 * Starts pg-boss on the database and works every queue. Any number of workers may run
 * against one database (`npm start` runs one in-process, `npm run worker` one alone).
 */
export async function startWorker({
  databaseUrl,
  db,
  media = {},
  definitions = jobDefinitions(),
  onError = () => {},
}: WorkerOptions): Promise<Worker> {
  const boss = createQueueClient(databaseUrl);
  boss.on('error', onError);
  await boss.start();
  const loops = new Map<string, string>();
  const lanes = new Map<string, Lane>();
  const context = {
    db,
    boss,
    media,
    onError,
    notify: (queue: string) => {
      lanes.get(queue)?.wake();
      const loop = loops.get(queue);
      if (loop) boss.notifyWorker(loop);
    },
  };
  for (const definition of definitions) {
    const options = { name: definition.name, ...definition.queue };
    await retryingConflicts(() => boss.createQueue(definition.name, options));
    // A queue an earlier version made keeps that version's options (its policy, its expiry)
    // in pg-boss's table: each start writes the code's.
    await retryingConflicts(() => boss.updateQueue(definition.name, options));
    if (definition.lane) {
      const lane = startLane<object>(
        boss,
        definition.name,
        { ...definition.lane, onError },
        (jobs, settled) => definition.handle(jobs, context, settled),
      );
      lanes.set(definition.name, lane);
      continue;
    }
    const id = await boss.work<object>(definition.name, definition.work ?? {}, (jobs) =>
      definition.handle(jobs, context, () => {}),
    );
    loops.set(definition.name, id);
  }
  for (const definition of definitions) await definition.onStart?.(context);
  return {
    boss,
    stop: async () => {
      await Promise.all([
        ...definitions.map((definition) => definition.onStop?.()),
        ...[...lanes.values()].map((lane) => lane.stop(10_000)),
      ]);
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
    },
  };
}
