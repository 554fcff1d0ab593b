import type { Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { createAccount, createApiKey } from '@chorus/services';
import { SCOPES, type Scope } from '@chorus/validators';
import { createRestHandler } from '../src/rest';

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** A raw body, sent as is with `contentType`. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  origin?: string;
}

/**
 * One database per test file, an account with its admin and an all-scopes key, and the
 * REST door called with real `Request` objects.
 */
export async function startHarness() {
  const database: Database = await createTestDatabase();
  const handle = createRestHandler({ getDatabase: async () => database });

  async function newAccount(name: string, email: string) {
    const { accountId, adminId } = await createAccount(database.db, {
      name,
      admin: { name: `${name} Admin`, email, password: 'correct horse battery' },
    });
    const { secret } = await keyFor(adminId);
    return { accountId, adminId, token: secret };
  }

  async function keyFor(userId: string, scopes: Scope[] = [...SCOPES], expiresAt?: Date) {
    return createApiKey({
      db: database.db,
      userId,
      name: 'test',
      scopes,
      environment: 'test',
      expiresAt,
    });
  }

  const main = await newAccount('Acme', 'admin@acme.test');

  async function call(method: string, path: string, options: CallOptions = {}) {
    const headers = new Headers(options.headers);
    const token = options.token === undefined ? main.token : options.token;
    if (token) headers.set('authorization', `Bearer ${token}`);
    let body: string | undefined = options.raw;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers.set('content-type', options.contentType ?? 'application/json');
    const res = await handle(
      new Request(`${options.origin ?? 'http://localhost:3000'}${path}`, { method, headers, body }),
    );
    const text = await res.text();
    return {
      res,
      status: res.status,
      headers: res.headers,
      json: text ? JSON.parse(text) : undefined,
    };
  }

  return {
    database,
    db: database.db,
    handle,
    call,
    main,
    newAccount,
    keyFor,
    close: () => database.close(),
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
