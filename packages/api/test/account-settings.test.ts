import type { Principal } from '@chorus/auth';
import { AppError } from '@chorus/services';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, createCallerFactory } from '../src';
import { startHarness, type Harness } from './harness';

let h: Harness;
let other: Awaited<ReturnType<Harness['newAccount']>>;
/** A member (`user` role) of the main account, with every scope. */
let member: string;
let memberId: string;
const createCaller = createCallerFactory(appRouter);
const caller = (principal: Principal) =>
  createCaller({ db: h.db, principal, requestId: 'req_test', origin: 'http://x', response: {} });

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount('Globex', 'admin@globex.test');
  const created = await h.call('POST', '/api/users', {
    body: { name: 'Member', email: 'member@acme.test', password: 'a-long-password' },
  });
  memberId = created.json.id;
  member = (await h.keyFor(memberId)).secret;
});
afterAll(() => h.close());

const get = (token?: string | null) => h.call('GET', '/api/account/settings', { token });
const put = (body: unknown, token?: string | null) =>
  h.call('PUT', '/api/account/settings', { body, token });

describe('account settings', () => {
  it('defaults to approval off and UTC', async () => {
    const { status, json } = await get();
    expect(status).toBe(200);
    expect(json).toEqual({ success: true, data: { requireApproval: false, timeZone: 'UTC' } });
  });

  it('lets an admin change them partially, and every member read them', async () => {
    const changed = await put({ timeZone: 'Europe/Berlin' });
    expect(changed.status).toBe(200);
    expect(changed.json.data).toEqual({ requireApproval: false, timeZone: 'Europe/Berlin' });
    expect((await put({ requireApproval: true })).json.data).toEqual({
      requireApproval: true,
      timeZone: 'Europe/Berlin',
    });
    const read = await get(member);
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual({ requireApproval: true, timeZone: 'Europe/Berlin' });
  });

  it('accepts a form body, as every JSON body (docs/api.md)', async () => {
    const { status, json } = await h.call('PUT', '/api/account/settings', {
      raw: 'requireApproval=false&timeZone=America%2FNew_York',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(status).toBe(200);
    expect(json.data).toEqual({ requireApproval: false, timeZone: 'America/New_York' });
  });

  it("takes today's names of zones the runtime lists under an older one, and the older ones", async () => {
    // Node's ICU lists Asia/Calcutta, Europe/Kiev, America/Godthab… and not UTC's other names.
    const names = ['Asia/Kolkata', 'Europe/Kyiv', 'America/Nuuk', 'Pacific/Kanton', 'Etc/UTC'];
    for (const timeZone of [...names, 'Asia/Calcutta', 'Etc/GMT+5', 'America/New_York']) {
      const { status, json } = await put({ timeZone });
      expect(status, timeZone).toBe(200);
      expect(json.data.timeZone).toBe(timeZone);
    }
  });

  it('refuses a time zone that is not an IANA name, naming the field, and keeps the old one', async () => {
    const refused = ['Mars/Olympus', 'europe/berlin', 'EUROPE/BERLIN', '+02:00', '-05:00'];
    for (const timeZone of [...refused, '', 'x'.repeat(100), 3]) {
      const { status, json } = await put({ timeZone, requireApproval: true });
      expect(status, String(timeZone)).toBe(400);
      expect(json.error.code).toBe('validation_error');
      expect(json.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['timeZone']);
    }
    expect((await put({ requireApproval: 'yes' })).status).toBe(400);
    expect((await get()).json.data).toEqual({
      requireApproval: false,
      timeZone: 'America/New_York',
    });
  });

  it("refuses a member's change (403 forbidden) and changes nothing", async () => {
    const { status, json } = await put({ requireApproval: true }, member);
    expect(status).toBe(403);
    expect(json.error.code).toBe('forbidden');
    expect((await get()).json.data.requireApproval).toBe(false);
  });

  it('needs `read` to read and `write` to change (scopes never imply each other)', async () => {
    const reader = (await h.keyFor(h.main.adminId, ['read'])).secret;
    const writer = (await h.keyFor(h.main.adminId, ['write'])).secret;
    const content = (await h.keyFor(h.main.adminId, ['content:read', 'content:write'])).secret;
    expect((await get(reader)).status).toBe(200);
    for (const token of [writer, content]) {
      const { status, json } = await get(token);
      expect(status).toBe(403);
      expect(json.error).toMatchObject({
        code: 'insufficient_scope',
        details: { requiredScopes: ['read'] },
      });
    }
    for (const token of [reader, content]) {
      const { status, json } = await put({ timeZone: 'Asia/Tokyo' }, token);
      expect(status).toBe(403);
      expect(json.error.code).toBe('insufficient_scope');
    }
    expect((await put({ timeZone: 'Asia/Tokyo' }, writer)).status).toBe(200);
    expect((await get(null)).status).toBe(401);
    expect((await put({}, null)).status).toBe(401);
  });

  it("keeps each account's settings its own", async () => {
    expect((await get(other.token)).json.data).toEqual({
      requireApproval: false,
      timeZone: 'UTC',
    });
    await put({ timeZone: 'Australia/Sydney' }, other.token);
    expect((await get()).json.data.timeZone).toBe('Asia/Tokyo');
  });

  it('answers 405 with Allow for other methods', async () => {
    const { status, headers } = await h.call('POST', '/api/account/settings', { body: {} });
    expect(status).toBe(405);
    expect(headers.get('allow')).toContain('PUT');
  });

  it('serves the same rules on the tRPC door', async () => {
    const admin = caller(h.session());
    expect((await admin.account.updateSettings({ timeZone: 'UTC' })).data.timeZone).toBe('UTC');
    const asMember = caller(h.session({ userId: memberId, role: 'user' }));
    expect((await asMember.account.settings({})).data.timeZone).toBe('UTC');
    const refused = await asMember.account
      .updateSettings({ requireApproval: true })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).cause).toBeInstanceOf(AppError);
    expect(((refused as TRPCError).cause as AppError).code).toBe('forbidden');
    const bad = await admin.account.updateSettings({ timeZone: 'Nowhere/Land' }).catch((e) => e);
    expect((bad as TRPCError).code).toBe('BAD_REQUEST');
  });
});
