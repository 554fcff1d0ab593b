import { eq, idempotencyKeys, sql, users } from '@chorus/db';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
} from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateBearer } from '@chorus/auth';
import { credentialOf, requestFingerprint } from '../src/rest/idempotency';
import { startHarness, type Harness } from './harness';

let h: Harness;
/** The main admin's API key, as the stored keys name it. */
let credential: string;
beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'e'.repeat(64);
  h = await startHarness();
  const principal = await authenticateBearer(h.db, h.main.token);
  if (!principal) throw new Error('the harness key does not authenticate');
  credential = credentialOf(principal);
});
afterAll(() => h.close());

let n = 0;
const unique = () => `${Date.now().toString(36)}-${++n}`;
const newUser = (tag = unique()) => ({
  name: `User ${tag}`,
  email: `user-${tag}@example.test`,
  password: 'correct horse battery',
});
const withKey = (key: string, extra: Record<string, string> = {}) => ({
  'idempotency-key': key,
  ...extra,
});
const countByEmail = async (email: string) =>
  (await h.db.select().from(users).where(eq(users.email, email))).length;

describe('Idempotency-Key on POST', () => {
  it('replays the first answer to a retry with the same body, doing the work once', async () => {
    const key = `key-${unique()}`;
    const body = newUser();
    const first = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(retry.status).toBe(201);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toMatch(/^application\/json/);
    // Each answer keeps its own request id and rate-limit headers.
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(retry.headers.get('x-ratelimit-remaining')).toBeTruthy();
    expect(await countByEmail(body.email)).toBe(1);
  });

  it('treats a body with its keys in another order as the same body', async () => {
    const key = `key-${unique()}`;
    const body = newUser();
    const first = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    const reordered = { password: body.password, email: body.email, name: body.name };
    const retry = await h.call('POST', '/api/users', { body: reordered, headers: withKey(key) });
    expect(retry.status).toBe(201);
    expect(retry.json).toEqual(first.json);
    expect(await countByEmail(body.email)).toBe(1);
  });

  it('refuses the same key with a different body: 400 idempotency_key_reused', async () => {
    const key = `key-${unique()}`;
    expect(
      (await h.call('POST', '/api/users', { body: newUser(), headers: withKey(key) })).status,
    ).toBe(201);
    const other = newUser();
    const reused = await h.call('POST', '/api/users', { body: other, headers: withKey(key) });
    expect(reused.status).toBe(400);
    expect(reused.json.error).toMatchObject({ code: 'idempotency_key_reused', status: 400 });
    expect(await countByEmail(other.email)).toBe(0);
  });

  it('scopes keys per credential: another user’s same key is another key, never a replay', async () => {
    const key = `key-${unique()}`;
    const body = newUser();
    expect((await h.call('POST', '/api/users', { body, headers: withKey(key) })).status).toBe(201);
    const colleague = await h.call('POST', '/api/users', {
      body: { ...newUser(), role: 'admin' },
    });
    const { secret } = await h.keyFor(colleague.json.id);
    const theirs = await h.call('POST', '/api/users', {
      body,
      token: secret,
      headers: withKey(key),
    });
    // Run afresh (the email is taken by then), not the first answer replayed.
    expect(theirs.status).toBe(400);
    expect(theirs.json.error.code).toBe('email_already_exists');
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys per account', async () => {
    const key = `key-${unique()}`;
    expect(
      (await h.call('POST', '/api/users', { body: newUser(), headers: withKey(key) })).status,
    ).toBe(201);
    const other = await h.newAccount('Globex', `admin-${unique()}@globex.test`);
    const body = newUser();
    const theirs = await h.call('POST', '/api/users', {
      body,
      token: other.token,
      headers: withKey(key),
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await countByEmail(body.email)).toBe(1);
  });

  it('answers 409 idempotency_in_progress while the first request still runs', async () => {
    const key = `key-${unique()}`;
    const body = newUser();
    // Another server instance has claimed the key and is running the request right now.
    const ref = { db: h.db, accountId: h.main.accountId, credential, key };
    const fingerprint = requestFingerprint(h.main.adminId, 'POST', '/api/users', body);
    const claim = await claimIdempotencyKey({ ...ref, fingerprint });
    expect(claim.kind).toBe('run');
    if (claim.kind !== 'run') return;

    const retry = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(retry.status).toBe(409);
    expect(retry.json.error).toMatchObject({ code: 'idempotency_in_progress', status: 409 });
    expect(await countByEmail(body.email)).toBe(0);
    // A different body is still a reused key, running or not.
    const other = await h.call('POST', '/api/users', { body: newUser(), headers: withKey(key) });
    expect(other.status).toBe(400);

    // The first request finishes: retries get its answer.
    const answer = { id: 'usr_from_the_other_instance' };
    await completeIdempotencyKey({
      ...ref,
      lockToken: claim.lockToken,
      response: { status: 201, body: JSON.stringify(answer) },
    });
    const replay = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual(answer);
    expect(await countByEmail(body.email)).toBe(0);
  });

  it('runs concurrent requests with one key once', async () => {
    const key = `key-${unique()}`;
    const body = newUser();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        h.call('POST', '/api/users', { body, headers: withKey(key) }),
      ),
    );
    const ran = results.filter(
      (r) => r.status === 201 && r.headers.get('idempotent-replayed') === null,
    );
    expect(ran).toHaveLength(1);
    for (const r of results) {
      if (r.status === 201) expect(r.json).toEqual(ran[0]?.json);
      else expect(r.json.error.code).toBe('idempotency_in_progress');
    }
    expect(await countByEmail(body.email)).toBe(1);
  });

  it('replays a 4xx answer (the outcome is final)', async () => {
    const key = `key-${unique()}`;
    const body = { ...newUser(), email: 'admin@acme.test' };
    const first = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(first.status).toBe(400);
    expect(first.json.error.code).toBe('email_already_exists');
    const retry = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(retry.status).toBe(400);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not keep a 5xx answer: the retry runs again', async () => {
    const key = `key-${unique()}`;
    const body = newUser();
    // The database refuses the write once, as an outage mid-request would.
    await h.db.execute(sql`
      create function refuse_user_insert() returns trigger language plpgsql as
      $$ begin raise exception 'refused for the test'; end $$`);
    await h.db.execute(sql`
      create trigger refuse_user_insert before insert on users
      for each row execute function refuse_user_insert()`);
    let failed;
    try {
      failed = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    } finally {
      await h.db.execute(sql`drop trigger refuse_user_insert on users`);
      await h.db.execute(sql`drop function refuse_user_insert()`);
    }
    expect(failed.status).toBe(500);
    expect(failed.json.error.code).toBe('internal_error');
    const rows = await h.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(0);
    const retry = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await countByEmail(body.email)).toBe(1);
  });

  it('ignores expired keys, and purges them', async () => {
    const key = `key-${unique()}`;
    expect(
      (await h.call('POST', '/api/users', { body: newUser(), headers: withKey(key) })).status,
    ).toBe(201);
    // 24 hours later:
    await h.db
      .update(idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKeys.key, key));
    const body = newUser();
    const again = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await countByEmail(body.email)).toBe(1);

    const stale = `key-${unique()}`;
    await h.call('POST', '/api/users', { body: newUser(), headers: withKey(stale) });
    await h.db
      .update(idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKeys.key, stale));
    await purgeExpiredIdempotencyKeys(h.db);
    const left = await h.db.select().from(idempotencyKeys);
    expect(left.some((row) => row.key === stale)).toBe(false);
    expect(left.some((row) => row.key === key)).toBe(true);
  });

  it('lets a retry take over a run abandoned by a dead server', async () => {
    const key = `key-${unique()}`;
    const body = newUser();
    const ref = { db: h.db, accountId: h.main.accountId, credential, key };
    const fingerprint = requestFingerprint(h.main.adminId, 'POST', '/api/users', body);
    const claim = await claimIdempotencyKey({ ...ref, fingerprint });
    await h.db
      .update(idempotencyKeys)
      .set({ lockedAt: sql`now() - interval '1 hour'` })
      .where(eq(idempotencyKeys.key, key));
    const retry = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(retry.status).toBe(201);
    // The dead run cannot overwrite the answer of the run that took over.
    if (claim.kind === 'run') {
      await completeIdempotencyKey({
        ...ref,
        lockToken: claim.lockToken,
        response: { status: 500, body: null },
      });
      await releaseIdempotencyKey({ ...ref, lockToken: claim.lockToken });
    }
    const replay = await h.call('POST', '/api/users', { body, headers: withKey(key) });
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual(retry.json);
  });

  it('validates the key: 1 to 255 characters', async () => {
    for (const key of ['', 'k'.repeat(256)]) {
      const body = newUser();
      const res = await h.call('POST', '/api/users', { body, headers: withKey(key) });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('validation_error');
      expect(res.json.error.details.issues[0].path).toBe('Idempotency-Key');
      expect(await countByEmail(body.email)).toBe(0);
    }
    const longest = await h.call('POST', '/api/users', {
      body: newUser(),
      headers: withKey('k'.repeat(255)),
    });
    expect(longest.status).toBe(201);
  });

  it('without the header, a retry runs the request again', async () => {
    const body = newUser();
    expect((await h.call('POST', '/api/users', { body })).status).toBe(201);
    expect((await h.call('POST', '/api/users', { body })).status).toBe(400); // email taken
  });
});

describe('Idempotency-Key and access', () => {
  /** A webhook of the main account (a public IP literal: no DNS needed) and its rotation. */
  async function rotated(key: string) {
    const hook = await h.call('POST', '/api/webhooks', {
      body: { url: 'https://93.184.216.34/hooks', events: ['*'] },
    });
    expect(hook.status).toBe(201);
    const path = `/api/webhooks/${hook.json.data.id}/rotate-secret`;
    const first = await h.call('POST', path, { headers: withKey(key) });
    expect(first.status).toBe(200);
    expect(first.json.data.secret).toMatch(/^whsec_/);
    return { path, secret: first.json.data.secret as string };
  }

  it('checks scopes before replaying: a read-only key of the same user never gets the secret', async () => {
    const key = `key-${unique()}`;
    const { path, secret } = await rotated(key);
    const readOnly = await h.keyFor(h.main.adminId, ['read']);
    const replayed = await h.call('POST', path, { token: readOnly.secret, headers: withKey(key) });
    expect(replayed.status).toBe(403);
    expect(replayed.json.error.code).toBe('insufficient_scope');
    expect(JSON.stringify(replayed.json)).not.toContain(secret);
    expect(replayed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('binds the answer to its credential: another key of the same user runs afresh', async () => {
    const key = `key-${unique()}`;
    const { path, secret } = await rotated(key);
    const sibling = await h.keyFor(h.main.adminId);
    const again = await h.call('POST', path, { token: sibling.secret, headers: withKey(key) });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.json.data.secret).toMatch(/^whsec_/);
    expect(again.json.data.secret).not.toBe(secret);
    // The first credential's retry still gets its own answer.
    const mine = await h.call('POST', path, { headers: withKey(key) });
    expect(mine.headers.get('idempotent-replayed')).toBe('true');
    expect(mine.json.data.secret).toBe(secret);
  });

  it('claims nothing for a caller the route refuses (role), so nothing is kept for it', async () => {
    const member = await h.call('POST', '/api/users', { body: { ...newUser(), role: 'user' } });
    const { secret: token } = await h.keyFor(member.json.id);
    const key = `key-${unique()}`;
    const refused = await h.call('POST', '/api/webhooks', {
      body: { url: 'https://93.184.216.34/hooks', events: ['*'] },
      token,
      headers: withKey(key),
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('forbidden');
    const kept = await h.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(kept).toHaveLength(0);
  });

  it('keeps answers sealed: the secret is not in the table, and a replay still shows it', async () => {
    const key = `key-${unique()}`;
    const { path, secret } = await rotated(key);
    const [row] = await h.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row?.responseBody).toBeTruthy();
    expect(row?.responseBody).not.toContain(secret);
    expect(row?.responseBody).not.toContain('whsec_');
    expect(row?.credential).toBe(credential);
    const replay = await h.call('POST', path, { headers: withKey(key) });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.data.secret).toBe(secret);
  });
});
