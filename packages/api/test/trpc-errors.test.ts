/** The tRPC door's errors carry the envelope's message, never an unexpected error's own. */
import type { Principal } from '@chorus/auth';
import type { Db } from '@chorus/db';
import { SCOPES } from '@chorus/validators';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../src';

const principal: Principal = {
  accountId: 'acc_x',
  userId: 'usr_x',
  role: 'admin',
  tier: 'free',
  credential: { kind: 'api_key', id: 'key_x' },
  scopes: [...SCOPES],
};

// A database whose every use fails the way a driver does: with SQL in the message.
const leakyDb = new Proxy({} as Db, {
  get() {
    throw new Error('select "password_hash" from "users" where "id" = $1 -- internal');
  },
});

/** `req` through tRPC's own handler, with the leaky database. */
const handle = (req: Request) =>
  fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => ({
      db: leakyDb,
      principal,
      requestId: 'req_x',
      origin: 'http://localhost',
      response: {},
    }),
  });

describe('tRPC error formatter', () => {
  it('answers internal_error with a fixed message, without SQL or a stack', async () => {
    const res = await handle(
      new Request('http://localhost/api/trpc/users.get?input=%7B%22userId%22%3A%22usr_x%22%7D'),
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/password_hash|select|stack|at .*\.ts/i);
    const body = JSON.parse(text);
    expect(body.error.message).toBe('An unexpected error occurred.');
    expect(body.error.data.error).toMatchObject({ code: 'internal_error', status: 500 });
  });

  it('answers a query POSTed, or a mutation fetched with GET, 405 method_not_allowed', async () => {
    const posted = new Request('http://localhost/api/trpc/account.settings', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    const fetched = new Request('http://localhost/api/trpc/account.updateSettings?input=%7B%7D');
    for (const res of [await handle(posted), await handle(fetched)]) {
      expect(res.status).toBe(405);
      const body = await res.json();
      expect(body.error.data.error).toMatchObject({ code: 'method_not_allowed', status: 405 });
    }
  });
});
