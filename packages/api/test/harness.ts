import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '@chorus/auth';
import type { Database } from '@chorus/db';
import { localDiskStorage, type StorageDriver } from '@chorus/storage';
import { createTestDatabase } from '@chorus/db/testing';
import { createAccount, createApiKey, type Tier } from '@chorus/services';
import { SCOPES, type Scope } from '@chorus/validators';
import type { RateLimiter, RateLimitsOverride } from '../src/rate-limit';
import { createRestHandler } from '../src/rest';
import { testRateLimiter } from './rate-limiter';

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** A raw body, sent as is with `contentType` (bytes for a body that is not UTF-8). */
  raw?: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  headers?: Record<string, string>;
  origin?: string;
  /** Another REST handler over the same database (e.g. with other rate limits). */
  handler?: (req: Request) => Promise<Response>;
}

export interface HarnessOptions {
  /** Rate limits of the harness's handler (default: docs/rate-limits-and-idempotency.md's). */
  limits?: RateLimitsOverride;
  /** Media storage (default: local disk in a fresh temporary directory, `storageDir`). */
  storage?: StorageDriver;
  maxUploadBytes?: number;
  sessionPrincipal?: (req: Request) => Promise<Principal | null>;
}

/**
 * One database per test file, an account with its admin and an all-scopes key, and the
 * REST door called with real `Request` objects. Rate-limit counters live in the Redis of
 * REDIS_URL when set (under a fresh prefix), else in the process.
 */
export async function startHarness(options: HarnessOptions = {}) {
  const database: Database = await createTestDatabase();
  const storageDir = await mkdtemp(join(tmpdir(), 'chorus-media-'));
  const storage = options.storage ?? localDiskStorage(storageDir);
  const limiters: RateLimiter[] = [];
  /** A REST handler over the harness's database with its own rate limiter. */
  function handlerWith(rateLimiter: RateLimiter) {
    limiters.push(rateLimiter);
    return createRestHandler({
      getDatabase: async () => database,
      rateLimiter,
      storage,
      maxUploadBytes: options.maxUploadBytes,
      sessionPrincipal: options.sessionPrincipal,
    });
  }
  const handle = handlerWith(testRateLimiter(options.limits));

  async function newAccount(name: string, email: string, tier?: Tier) {
    const { accountId, adminId } = await createAccount(database.db, {
      name,
      tier,
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

  /** The main account's admin, signed in to the dashboard (all scopes), with any overrides. */
  const session = (overrides: Partial<Principal> = {}): Principal => ({
    accountId: main.accountId,
    userId: main.adminId,
    role: 'admin',
    tier: 'free',
    credential: { kind: 'session', id: 'sid_test' },
    scopes: [...SCOPES],
    ...overrides,
  });

  async function call(method: string, path: string, options: CallOptions = {}) {
    const headers = new Headers(options.headers);
    const token = options.token === undefined ? main.token : options.token;
    if (token) headers.set('authorization', `Bearer ${token}`);
    let body: string | Uint8Array<ArrayBuffer> | undefined = options.raw;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers.set('content-type', options.contentType ?? 'application/json');
    const res = await (options.handler ?? handle)(
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
    storage,
    storageDir,
    handle,
    handlerWith,
    call,
    main,
    session,
    newAccount,
    keyFor,
    close: async () => {
      await Promise.all(limiters.map((limiter) => limiter.close()));
      await database.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
