import { count, eq, users } from '@chorus/db';
import { countUsers, newId } from '@chorus/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrpcHandler } from '../src/server/trpc-door';
import { startHarness, type Harness } from './harness';
import { testRateLimiter } from './rate-limiter';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seed(h.main.accountId, 30);
});
afterAll(() => h.close());

/**
 * `n` users of the account written as one batch (with their counts, as a bulk load must),
 * three to a millisecond so that the order's tie-break (id) is walked too; every fifth an
 * admin, every third's name containing "zed".
 */
async function seed(accountId: string, n: number) {
  const start = Date.now() - 60_000;
  const rows = Array.from({ length: n }, (_, i) => ({
    id: newId('usr'),
    accountId,
    name: i % 3 === 0 ? `Zed ${i}` : `Person ${i}`,
    email: `p${i}-${accountId}@cursor.test`,
    passwordHash: 'not a hash: these users never sign in',
    role: i % 5 === 0 ? ('admin' as const) : ('user' as const),
    createdAt: new Date(start + Math.floor(i / 3)),
  }));
  await h.db.transaction(async (tx) => {
    await tx.insert(users).values(rows);
    const admins = rows.filter((r) => r.role === 'admin').length;
    await countUsers({ tx, accountId, changes: { admin: admins, user: n - admins } });
  });
}

interface ListBody {
  data: { id: string; role: string; name: string }[];
  pagination: { total: number; page: number; limit: number; pages: number };
  meta?: { pagination: { nextCursor: string | null } };
}

/** Every id of the list through page numbers (the reference order). */
async function allByPages(query: string) {
  const { json } = await h.call('GET', `/api/users?limit=100&${query}`);
  return (json as ListBody).data.map((u) => u.id);
}

/** Walks the list: the first page by number, then `startingAfter` until nextCursor is null. */
async function walk(query: string, limit: number, get = restList) {
  const first = await get(`limit=${limit}&${query}`);
  expect(first.meta).toBeUndefined();
  const ids = first.data.map((u) => u.id);
  let cursor = ids.at(-1);
  while (cursor) {
    const next = await get(`limit=${limit}&${query}&startingAfter=${cursor}`);
    expect(next.pagination.total).toBe(first.pagination.total);
    expect(next.data.length).toBeLessThanOrEqual(limit);
    ids.push(...next.data.map((u) => u.id));
    // The last user's id while users follow; null on the last page, even a full one.
    const nextCursor = next.meta?.pagination.nextCursor;
    expect(nextCursor).toBe(ids.length < first.pagination.total ? next.data.at(-1)?.id : null);
    cursor = nextCursor ?? undefined;
  }
  return { ids, total: first.pagination.total };
}

async function restList(query: string): Promise<ListBody> {
  const { status, json } = await h.call('GET', `/api/users?${query}`);
  expect(status).toBe(200);
  return json as ListBody;
}

describe('GET /api/users?startingAfter=', () => {
  it('walks every user exactly once, in the order of the page numbers, ending with a null cursor', async () => {
    const reference = await allByPages('');
    expect(reference).toHaveLength(31);
    for (const limit of [1, 4, 31, 50]) {
      const { ids, total } = await walk('', limit);
      expect(ids).toEqual(reference);
      expect(total).toBe(31);
    }
  });

  it('walks a role, a search and both, each exactly once', async () => {
    for (const query of ['role=admin', 'role=user', 'q=zed', 'q=zed&role=admin']) {
      const reference = await allByPages(query);
      const { ids, total } = await walk(query, 2);
      expect(ids).toEqual(reference);
      expect(total).toBe(reference.length);
    }
    expect(await allByPages('q=zed&role=admin')).toHaveLength(2);
  });

  it('answers a total equal to a real count, the spec’s pagination beside the cursor', async () => {
    const [real] = await h.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.accountId, h.main.accountId));
    const [cursor] = await allByPages('');
    const page = await restList(`limit=10&startingAfter=${cursor}`);
    expect(page.pagination).toEqual({ total: real?.n, page: 1, limit: 10, pages: 4 });
    expect(page.meta).toEqual({ pagination: { nextCursor: page.data[9]?.id } });
    expect(Object.keys(page).sort()).toEqual(['data', 'meta', 'pagination']);
  });

  it('keeps its place when users are added and deleted during a walk', async () => {
    const reference = await allByPages('');
    const first = await restList('limit=5');
    const cursor = first.data.at(-1)?.id;
    await h.call('POST', '/api/users', {
      body: { name: 'Late', email: 'late@cursor.test', password: 'a-long-password' },
    });
    const gone = reference[7];
    expect((await h.call('DELETE', `/api/users/${gone}`)).status).toBe(204);
    const next = await restList(`limit=5&startingAfter=${cursor}`);
    expect(next.data.map((u) => u.id)).toEqual(reference.slice(5, 11).filter((id) => id !== gone));
    expect(next.pagination.total).toBe(reference.length);
  });

  it('answers an empty last page after the last user', async () => {
    const last = (await allByPages('')).at(-1);
    const page = await restList(`startingAfter=${last}`);
    expect(page.data).toEqual([]);
    expect(page.meta?.pagination.nextCursor).toBeNull();
  });

  it('refuses another account’s user exactly as an unknown or deleted id: 400 on startingAfter', async () => {
    const other = await h.newAccount('Cursorless', 'admin@cursorless.test');
    const created = await h.call('POST', '/api/users', {
      body: { name: 'Brief', email: 'brief@cursor.test', password: 'a-long-password' },
    });
    await h.call('DELETE', `/api/users/${created.json.id}`);
    const answers = [];
    for (const id of [other.adminId, 'usr_00000000000000000000000000', created.json.id, '%3F']) {
      const { status, json } = await h.call('GET', `/api/users?startingAfter=${id}`);
      answers.push({ status, error: json.error });
    }
    expect(answers[0]).toEqual({
      status: 400,
      error: {
        code: 'validation_error',
        message: 'startingAfter is not a user of this account.',
        status: 400,
        details: {
          issues: [{ path: 'startingAfter', message: 'No user of this account has this id.' }],
        },
      },
    });
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    // The other account's own walk is untouched by ours.
    const theirs = await h.call('GET', `/api/users?startingAfter=${other.adminId}`, {
      token: other.token,
    });
    expect(theirs.json.data).toEqual([]);
  });

  it.each([
    ['page=2&startingAfter=usr_x', 'page'],
    ['startingAfter=', 'startingAfter'],
    [`startingAfter=${'x'.repeat(101)}`, 'startingAfter'],
  ])('refuses %s with 400 validation_error', async (query, path) => {
    const { status, json } = await h.call('GET', `/api/users?${query}`);
    expect(status).toBe(400);
    expect(json.error.code).toBe('validation_error');
    expect(json.error.details.issues.map((i: { path: string }) => i.path)).toEqual([path]);
  });

  it('is documented in the OpenAPI document', async () => {
    const { json } = await h.call('GET', '/api/openapi.json', { token: null });
    const params = json.paths['/api/users'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toContain('startingAfter');
    const list = json.components.schemas.UserList.properties;
    expect(list.meta.properties.pagination.properties.nextCursor).toBeDefined();
    expect(json.components.schemas.UserList.required).toEqual(['data', 'pagination']);
  });
});

describe('the tRPC door’s users.list with startingAfter', () => {
  it('walks the same users as REST, and refuses a foreign cursor with the same code', async () => {
    const handle = createTrpcHandler({
      getDatabase: async () => h.database,
      rateLimiter: testRateLimiter({ free: { read: 1000, write: 1000 } }),
    });
    const trpcList = async (query: string) => {
      const params = new URLSearchParams(query);
      const input: Record<string, unknown> = Object.fromEntries(params);
      if (input.limit) input.limit = Number(input.limit);
      const res = await handle(
        new Request(
          `http://localhost/api/trpc/users.list?input=${encodeURIComponent(JSON.stringify(input))}`,
          { headers: { authorization: `Bearer ${h.main.token}` } },
        ),
      );
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const get = async (query: string) => {
      const { status, body } = await trpcList(query);
      expect(status).toBe(200);
      return (body.result as { data: ListBody }).data;
    };
    expect((await walk('role=user', 3, get)).ids).toEqual(await allByPages('role=user'));
    const other = await h.newAccount('Elsewhere', 'admin@elsewhere.test');
    const refused = await trpcList(`startingAfter=${other.adminId}`);
    expect(refused.status).toBe(400);
    const error = refused.body.error as { data: { error: { code: string } } };
    expect(error.data.error.code).toBe('validation_error');
  });
});
