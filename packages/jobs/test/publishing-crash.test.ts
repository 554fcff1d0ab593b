import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, postActivity, type Database } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import { createAccount } from '@chorus/services';
import {
  startMastodonStandIn,
  startXStandIn,
  type MastodonStandIn,
  type XStandIn,
} from '@chorus/stand-ins';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPost, postStatus, seedChannel, targetsOf } from './publishing-fixtures';
import { until } from './until';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * A worker process killed between the claim and the outcome (`npm run worker`, SIGKILL while
 * the networks hold its requests): after its lease, the target on the idempotent network is
 * sent again with the same key and lands on the same post; the other becomes `unconfirmed`.
 */

let database: Database & { url: string };
let mastodon: MastodonStandIn;
let x: XStandIn;
let storageDir: string;
const children: ChildProcess[] = [];

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      CHORUS_STORAGE_DIR: storageDir,
      CHORUS_PUBLISHING_LEASE_SECONDS: '2',
      CHORUS_PUBLISHING_SWEEP_INTERVAL_MS: '200',
      CHORUS_INTEGRATION_X_API_URL: x.url,
    },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  // The Mastodon stand-in is the channel's own server, on loopback: allowed as in development.
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  database = await createTestServerDatabase();
  storageDir = await mkdtemp(join(tmpdir(), 'chorus-crash-'));
  mastodon = await startMastodonStandIn();
  x = await startXStandIn();
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  await mastodon?.close();
  await x?.close();
  await database?.close();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

describe('a worker killed between claim and outcome', () => {
  it(
    'resends only where the network is idempotent; the other target is unconfirmed',
    { timeout: 150_000 },
    async () => {
      const { accountId } = await createAccount(database.db, {
        name: 'Crash',
        admin: { name: 'Ada', email: 'ada@crash.test', password: 'correct horse battery' },
      });
      const onMastodon = await seedChannel(database.db, {
        accountId,
        integrationId: 'mastodon',
        kind: 'api_key',
        externalId: `${mastodon.accountId}@mastodon.test`,
        credentials: { accessToken: mastodon.token, extra: { instanceUrl: mastodon.url } },
      });
      const onX = await seedChannel(database.db, {
        accountId,
        integrationId: 'x',
        externalId: x.userId,
        credentials: { accessToken: x.token, refreshToken: x.refreshToken },
      });
      // Each network acts on the post, then holds its answer far longer than the test runs.
      mastodon.faults.inject({ kind: 'slow', ms: 120_000 }, { path: '/api/v1/statuses' });
      x.faults.inject({ kind: 'slow', ms: 120_000 }, { path: '/2/tweets' });
      const { postId } = await insertPost(database.db, {
        accountId,
        content: 'Sent before the crash',
        targets: [{ channelId: onMastodon }, { channelId: onX }],
      });

      const first = startWorkerProcess();
      await until(
        () => mastodon.published().length === 1 && x.published().length === 1,
        'both networks to receive the post',
        90_000,
      );
      const claimed = await targetsOf(database.db, postId);
      expect(claimed.map((target) => target.status)).toEqual(['publishing', 'publishing']);
      first.kill('SIGKILL');
      await exited(first);

      startWorkerProcess();
      await until(
        async () => (await postStatus(database.db, postId)) === 'failed',
        'the post to settle after the restart',
        90_000,
      );
      const [resent, unconfirmed] = await targetsOf(database.db, postId);
      expect(resent).toMatchObject({
        status: 'published',
        attempts: 2,
        externalId: mastodon.published()[0]?.id,
      });
      expect(unconfirmed).toMatchObject({
        status: 'unconfirmed',
        attempts: 1,
        error: { code: 'unconfirmed', retryable: false },
      });
      // The sweep's verdict is in the post's activity, by Chorus itself.
      const entries = await database.db
        .select()
        .from(postActivity)
        .where(eq(postActivity.targetId, unconfirmed?.id ?? ''));
      expect(entries).toEqual([
        expect.objectContaining({ action: 'unconfirmed', actorId: null, postId }),
      ]);
      // Two requests to Mastodon with one key made one status; X got exactly one request.
      const statuses = mastodon.received.filter(
        (r) => r.method === 'POST' && r.url === '/api/v1/statuses',
      );
      expect(statuses).toHaveLength(2);
      expect(statuses[1]?.headers['idempotency-key']).toBe(statuses[0]?.headers['idempotency-key']);
      expect(mastodon.published()).toHaveLength(1);
      expect(x.received.filter((r) => r.method === 'POST' && r.url === '/2/tweets')).toHaveLength(
        1,
      );
      expect(x.published()).toHaveLength(1);
    },
  );
});
