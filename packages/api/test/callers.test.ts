import type { Principal } from '@chorus/auth';
import { AppError } from '@chorus/services';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, createCallerFactory } from '../src';
import { startHarness, type Harness } from './harness';

let h: Harness;
const createCaller = createCallerFactory(appRouter);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const principal = (overrides: Partial<Principal> = {}) => h.session(overrides);

const caller = (p: Principal | null) =>
  createCaller({
    db: h.db,
    principal: p,
    requestId: 'req_test',
    origin: 'http://localhost',
    response: {},
  });

/** The domain error behind a tRPC error, as the doors see it. */
async function domainError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const cause = (error as TRPCError).cause;
  expect(cause).toBeInstanceOf(AppError);
  return { trpc: error as TRPCError, app: cause as AppError };
}

describe('the typed door (createCaller)', () => {
  it('serves the same procedures and shapes as REST', async () => {
    const list = await caller(principal()).users.list({ page: 1, limit: 50 });
    expect(list.pagination.total).toBe(1);
    const created = await caller(principal()).users.create({
      name: 'Typed',
      email: 'typed@acme.test',
      password: 'typed-password',
      role: 'user',
    });
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'role']);
    const user = await caller(principal()).users.get({ userId: created.id });
    expect(user.settings).toEqual({ notifications: true, twoFactorAuth: false });
  });

  it('refuses a call without a principal as UNAUTHORIZED', async () => {
    const { trpc, app } = await domainError(caller(null).users.get({ userId: h.main.adminId }));
    expect(trpc.code).toBe('UNAUTHORIZED');
    expect(app.code).toBe('unauthorized');
  });

  it('checks scopes, then roles, as the tiers declare', async () => {
    const scope = await domainError(
      caller(principal({ scopes: ['write'] })).users.list({ page: 1, limit: 5 }),
    );
    expect(scope.trpc.code).toBe('FORBIDDEN');
    expect(scope.app.code).toBe('insufficient_scope');
    const role = await domainError(
      caller(principal({ role: 'user' })).users.list({ page: 1, limit: 5 }),
    );
    expect(role.app.code).toBe('forbidden');
  });

  it('maps domain errors to their tRPC codes', async () => {
    const missing = await domainError(caller(principal()).users.get({ userId: 'usr_missing' }));
    expect(missing.trpc.code).toBe('NOT_FOUND');
    const last = await domainError(caller(principal()).users.delete({ userId: h.main.adminId }));
    expect(last.trpc.code).toBe('CONFLICT');
    expect(last.app.code).toBe('last_admin');
  });

  it('declares the access of each procedure in its meta', () => {
    const procedures = appRouter._def.procedures as unknown as Record<
      string,
      { _def: { meta?: { access?: unknown } } }
    >;
    expect(procedures['users.list']?._def.meta?.access).toEqual({
      scopes: ['read'],
      role: 'admin',
    });
    expect(procedures['users.get']?._def.meta?.access).toEqual({ scopes: ['read'] });
    expect(procedures['users.update']?._def.meta?.access).toEqual({ scopes: ['write'] });
  });
});
