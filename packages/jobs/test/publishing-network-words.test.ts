import { and, eq, events, postActivity, sql, type Database, type TargetError } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import {
  createAccount,
  publishingSettings,
  publishTarget,
  recoverAbandoned,
} from '@chorus/services';
import { mastodonFaults, startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { insertPost, seedChannel, targetsOf } from './publishing-fixtures';

/**
 * What a network answers is hostile (docs/security.md, "Words from networks"): its words reach a
 * target's error, the post's activity, events and the worker's log only cleaned (no control
 * character, no bidirectional override, capped) and without the channel's own secrets; and a
 * failure to write an attempt's outcome never has the request sent again (docs/publishing.md,
 * States). Each attempt is made as a worker makes it (`publishTarget`), then the sweep of
 * abandoned claims runs as after the lease, three times over: a target the attempt left
 * `publishing` would be sent again there.
 */

let database: Database;
let mastodon: MastodonStandIn;
const settings = publishingSettings();
const logged: string[] = [];

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY ??= 'e'.repeat(64);
  // The Mastodon stand-in is the channel's own server, on loopback: allowed as in development.
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  database = await createTestDatabase();
  mastodon = await startMastodonStandIn();
  // The database's own refusal of an outcome: a trigger that fails its write, for the statuses
  // listed in outcome_faults (always, or only the first write when `once`).
  for (const statement of [
    'create table outcome_faults (status text primary key, once boolean not null)',
    'create sequence outcome_fault_once',
    `create function refuse_outcome() returns trigger language plpgsql as $$
     begin
       if old.status = 'publishing' and exists (
         select 1 from outcome_faults f
         where f.status = new.status::text and (not f.once or nextval('outcome_fault_once') = 1)
       ) then
         raise exception 'the outcome write failed (a test''s fault)';
       end if;
       return new;
     end $$`,
    `create trigger refuse_outcome before update on post_targets
     for each row execute function refuse_outcome()`,
  ]) {
    await database.db.execute(sql.raw(statement));
  }
});

afterAll(async () => {
  await mastodon?.close();
  await database?.close();
});

beforeEach(async () => {
  mastodon.faults.clear();
  logged.length = 0;
  await database.db.execute(sql`delete from outcome_faults`);
  await database.db.execute(sql`alter sequence outcome_fault_once restart`);
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
    logged.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
  return () => vi.restoreAllMocks();
});

let accounts = 0;

/** An account with a Mastodon channel of its own token, and a post to it, publishing now. */
async function postToMastodon(content: string) {
  const { accountId } = await createAccount(database.db, {
    name: `Words ${++accounts}`,
    admin: { name: 'Ada', email: `ada${accounts}@words.test`, password: 'correct horse battery' },
  });
  const user = mastodon.addAccount({ username: `words${accounts}` });
  const channelId = await seedChannel(database.db, {
    accountId,
    integrationId: 'mastodon',
    kind: 'api_key',
    externalId: `${user.accountId}@mastodon.test`,
    credentials: { accessToken: user.token, extra: { instanceUrl: mastodon.url } },
  });
  const { postId, targetIds } = await insertPost(database.db, {
    accountId,
    content,
    targets: [{ channelId }],
    publishNow: true,
  });
  return { accountId, postId, targetId: targetIds[0] ?? '', token: user.token };
}

/** One attempt, then three sweeps after the lease, each followed by the attempt they allow. */
async function attemptThenSweep(targetId: string) {
  const first = await publishTarget({ db: database.db, settings }, targetId).catch(
    (error: unknown) => `threw: ${String(error).slice(0, 200)}`,
  );
  for (let round = 0; round < 3; round++) {
    await database.db.execute(
      sql`update post_targets set updated_at = now() - interval '1 day'
          where id = ${targetId} and status = 'publishing'`,
    );
    await recoverAbandoned(database.db, settings);
    await publishTarget({ db: database.db, settings }, targetId).catch(() => null);
  }
  return first;
}

const sent = (content: string) =>
  mastodon.received.filter(
    (r) => r.method === 'POST' && r.url === '/api/v1/statuses' && r.body.includes(content),
  );

async function targetOf(postId: string) {
  const [target] = await targetsOf(database.db, postId);
  return target;
}

/** Every place the target's error went: the post's activity, the account's events, the log. */
async function storedElsewhere(accountId: string, postId: string) {
  const activity = await database.db
    .select({ details: postActivity.details })
    .from(postActivity)
    .where(eq(postActivity.postId, postId));
  const recorded = await database.db
    .select({ type: events.type, payload: events.payload })
    .from(events)
    .where(and(eq(events.accountId, accountId)));
  return { activity, recorded, log: logged.join('') };
}

describe("a network's words", () => {
  it('a rejection with a NUL, escapes and bidi overrides: failed once, rejected, in clean words', async () => {
    const { accountId, postId, targetId } = await postToMastodon('Hostile words');
    mastodon.faults.inject(
      mastodonFaults.rejected(
        'Validation failed:\u0000 text\u001b[2J is \u202Egnp.exe\u202C \u0085silly\u2066!\u2069 \ud800',
      ),
      { method: 'POST', path: '/api/v1/statuses' },
    );
    expect(await attemptThenSweep(targetId)).toBe('failed');
    const clean = 'Validation failed: text [2J is gnp.exe silly! \ufffd';
    expect(sent('Hostile words')).toHaveLength(1);
    expect(await targetOf(postId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'rejected', message: clean, retryable: false },
    });
    const { activity, recorded, log } = await storedElsewhere(accountId, postId);
    expect(activity).toEqual([{ details: { error: expect.objectContaining({ message: clean }) } }]);
    const failed = recorded.find((event) => event.type === 'post.failed');
    const object = failed?.payload.data.object as { targets: { error: TargetError | null }[] };
    expect(object.targets[0]?.error?.message).toBe(clean);
    expect(log).toContain(JSON.stringify(clean));
    expect(log).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u0080-\u009F]/);
  });

  it('a message past 500 characters is cut there, with an ellipsis', async () => {
    const { postId, targetId } = await postToMastodon('Long words');
    mastodon.faults.inject(mastodonFaults.rejected(`Too long: ${'é'.repeat(3000)}`), {
      method: 'POST',
      path: '/api/v1/statuses',
    });
    expect(await attemptThenSweep(targetId)).toBe('failed');
    const message = (await targetOf(postId))?.error?.message ?? '';
    expect([...message]).toHaveLength(500);
    expect(message).toMatch(/^Too long: é+…$/);
  });

  it("the channel's token echoed by the network is redacted wherever the error goes", async () => {
    const { accountId, postId, targetId, token } = await postToMastodon('Echoed token');
    mastodon.faults.inject(
      {
        kind: 'answer',
        answer: { status: 401, body: { error: `The access token is invalid (${token})` } },
      },
      { method: 'POST', path: '/api/v1/statuses' },
    );
    expect(await attemptThenSweep(targetId)).toBe('failed');
    expect(await targetOf(postId)).toMatchObject({
      status: 'failed',
      error: {
        code: 'reconnect_required',
        message: 'The access token is invalid ([redacted])',
      },
    });
    const { activity, recorded, log } = await storedElsewhere(accountId, postId);
    expect(activity).toHaveLength(1);
    expect(recorded.map((event) => event.type)).toContain('integration.needs_reconnect');
    expect(log).toContain('[redacted]');
    expect(JSON.stringify([await targetOf(postId), activity, recorded, log])).not.toContain(token);
  });
});

describe('an outcome the database will not write', () => {
  it("once: written again, the network's answer kept, the post never sent again", async () => {
    const { postId, targetId } = await postToMastodon('Refused once');
    mastodon.faults.inject(mastodonFaults.rejected('Text is too silly'), {
      method: 'POST',
      path: '/api/v1/statuses',
    });
    await database.db.execute(sql`insert into outcome_faults values ('failed', true)`);
    const first = await attemptThenSweep(targetId);
    expect(sent('Refused once')).toHaveLength(1);
    expect(first).toBe('failed');
    expect(await targetOf(postId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'rejected', message: 'Text is too silly', retryable: false },
    });
  });

  it('never as failed: unconfirmed, not sent again', async () => {
    const { postId, targetId } = await postToMastodon('Never failed');
    mastodon.faults.inject(mastodonFaults.rejected('Text is too silly'), {
      method: 'POST',
      path: '/api/v1/statuses',
    });
    await database.db.execute(sql`insert into outcome_faults values ('failed', false)`);
    const first = await attemptThenSweep(targetId);
    expect(sent('Never failed')).toHaveLength(1);
    expect(first).toBe('unconfirmed');
    expect(await targetOf(postId)).toMatchObject({
      status: 'unconfirmed',
      attempts: 1,
      error: { code: 'unconfirmed', retryable: false },
    });
    expect(logged.join('')).toContain('publishing outcome not written');
  });

  it('never as published: unconfirmed, saying the network answered, one status', async () => {
    const { postId, targetId } = await postToMastodon('Never published');
    await database.db.execute(sql`insert into outcome_faults values ('published', false)`);
    const first = await attemptThenSweep(targetId);
    expect(sent('Never published')).toHaveLength(1);
    expect(first).toBe('unconfirmed');
    expect(mastodon.published().filter((s) => s.text === 'Never published')).toHaveLength(1);
    expect(await targetOf(postId)).toMatchObject({
      status: 'unconfirmed',
      attempts: 1,
      error: {
        code: 'unconfirmed',
        message: expect.stringContaining('The network published this post'),
        retryable: false,
      },
    });
  });
});
