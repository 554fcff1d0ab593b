import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { eq, webhookAttempts, webhookDeliveries, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount, createWebhook, recordEvent } from '@chorus/services';
import { SCOPES } from '@chorus/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './until';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** `npm run worker` as a deployment runs it, on the test database. */
function startWorkerProcess(databaseUrl: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

describe('a worker killed mid-delivery', () => {
  let database: Database & { url: string };
  const requests: { id: string; res: ServerResponse }[] = [];
  let receiverUrl = '';
  let server: ReturnType<typeof createServer>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
    process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    // A claimed delivery returns to the queue 11 s after it was claimed (the shortest lease:
    // one outlasts an attempt's 10 s).
    process.env.CHORUS_WEBHOOK_LEASE_SECONDS = '11';
    database = await createTestServerDatabase();
    // The receiver holds the first request without answering (the worker dies meanwhile),
    // and answers 200 to the next.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests.push({ id: String(req.headers['webhook-id']), res });
        if (requests.length > 1) res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await database?.close();
  });

  it(
    'loses nothing: the delivery goes out again after a restart, with the same webhook-id',
    { timeout: 120_000 },
    async () => {
      const { accountId, adminId } = await createAccount(database.db, {
        name: 'Crash',
        admin: { name: 'Ada', email: 'ada@crash.test', password: 'correct horse battery' },
      });
      const principal = {
        accountId,
        userId: adminId,
        role: 'admin' as const,
        tier: 'free' as const,
        credential: { kind: 'session' as const, id: 'test' },
        scopes: [...SCOPES],
      };
      const hook = await createWebhook({
        db: database.db,
        principal,
        input: { url: receiverUrl, events: ['*'], description: '', active: true },
      });
      const event = await database.db.transaction((tx) =>
        recordEvent({ tx, accountId, type: 'post.published', object: { id: 'post_x' } }),
      );

      const first = startWorkerProcess(database.url);
      children.push(first);
      await until(() => requests.length === 1, 'the first attempt');
      first.kill('SIGKILL');
      await exited(first);
      const [pending] = await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hook.id));
      expect(pending?.status).toBe('pending');

      const second = startWorkerProcess(database.url);
      children.push(second);
      await until(async () => {
        const [row] = await database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.webhookId, hook.id));
        return row?.status === 'succeeded';
      }, 'the delivery to succeed after the restart');
      expect(requests.map((r) => r.id)).toEqual([event.id, event.id]);
      const attempts = await database.db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, pending?.id ?? ''));
      expect(attempts.map((a) => a.statusCode)).toEqual([200]);
    },
  );
});
