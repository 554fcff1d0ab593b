/**
 * The confirmed escalation: a read-only key of another account sends `__proto__[role]=admin`;
 * if any parser wrote it onto Object.prototype, the next user created without a role would be
 * an admin. Sent through a real socket, form and JSON, top level and nested.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { serveOnLoopback } from './http-server';

let h: Harness;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let readOnlyToken: string;
beforeAll(async () => {
  h = await startHarness();
  server = await serveOnLoopback(h.handle);
  const other = await h.newAccount('Other', 'admin@other.test');
  readOnlyToken = (await h.keyFor(other.adminId, ['read'])).secret;
});
afterAll(async () => {
  await server.close();
  await h.close();
});

const send = (path: string, token: string, contentType: string, body: string, method = 'POST') =>
  fetch(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body,
  });

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const polluting: [string, string][] = [
  [FORM, '__proto__[role]=admin'],
  [FORM, 'constructor[prototype][role]=admin'],
  [FORM, 'settings[__proto__]=admin&name=x'],
  [FORM, '__proto__=admin'],
  [FORM, 'prototype[role]=admin'],
  [JSON_TYPE, '{"__proto__":{"role":"admin"}}'],
  [JSON_TYPE, '{"constructor":{"prototype":{"role":"admin"}}}'],
  [JSON_TYPE, '{"name":"x","settings":{"__proto__":{"role":"admin"}}}'],
];

describe('prototype pollution', () => {
  it('leaves Object.prototype untouched, whatever a polluting body says', async () => {
    for (const [type, body] of polluting) {
      for (const path of ['/api/users', `/api/users/${h.main.adminId}`]) {
        const method = path === '/api/users' ? 'POST' : 'PUT';
        // The read-only key of another account: refused, as before, and nothing leaks through.
        const foreign = await send(path, readOnlyToken, type, body, method);
        expect(foreign.status).toBeGreaterThanOrEqual(400);
        expect(foreign.status).toBeLessThan(500);
        // An allowed caller gets a 400 naming the key: it is refused, not ignored.
        const own = await send(path, h.main.token, type, body, method);
        expect(own.status, `${type} ${body}`).toBe(400);
        expect((await own.json()).error.code).toBe('validation_error');
      }
    }
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('role');
    const created = await send(
      '/api/users',
      h.main.token,
      JSON_TYPE,
      JSON.stringify({ name: 'After', email: 'after@acme.test', password: 'long-enough-1' }),
    );
    expect(created.status).toBe(201);
    expect((await created.json()).role).toBe('user');
  });

  it('refuses polluting query parameters and survives names that live on Object.prototype', async () => {
    for (const query of [
      '__proto__[role]=admin',
      'constructor=x',
      'toString=x',
      'hasOwnProperty=1',
    ]) {
      const res = await fetch(`${server.base}/api/users?${query}`, {
        headers: { authorization: `Bearer ${h.main.token}` },
      });
      expect(res.status, query).toBeLessThan(500);
    }
    const res = await fetch(`${server.base}/api/users?__proto__=x`, {
      headers: { authorization: `Bearer ${h.main.token}` },
    });
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});

describe('a reserved key refused', () => {
  const refusedAt = async (type: string, body: string) => {
    const res = await send('/api/content/posts', h.main.token, type, body);
    expect(res.status, body).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('validation_error');
    return error.details.issues.map((issue: { path: string }) => issue.path);
  };

  it('is named by its full path, the first one met from the start of the body', async () => {
    expect(await refusedAt(JSON_TYPE, '{"title":"p","meta":{"constructor":{"a":1}}}')).toEqual([
      'meta.constructor',
    ]);
    // `prototype` is reached through `constructor`, which is met first.
    expect(await refusedAt(JSON_TYPE, '{"title":"p","constructor":{"prototype":1}}')).toEqual([
      'constructor',
    ]);
    // Depth first: everything under an earlier key comes before a later key.
    expect(
      await refusedAt(JSON_TYPE, '{"a":[{"b":{"__proto__":1}}],"prototype":1,"title":"p"}'),
    ).toEqual(['a[0].b.__proto__']);
    expect(await refusedAt(FORM, 'title=p&meta[constructor][a]=1')).toEqual(['meta.constructor']);
    expect(await refusedAt(FORM, 'title=p&constructor[prototype]=1')).toEqual(['constructor']);
    // In a form's list of objects, as in JSON: an item by its index in brackets.
    expect(
      await refusedAt(FORM, 'title=p&targets[0][channelId]=c&targets[0][__proto__][role]=admin'),
    ).toEqual(['targets[0].__proto__']);
    expect(await refusedAt(FORM, 'title=p&targets[0][thread][0][constructor]=1')).toEqual([
      'targets[0].thread[0].constructor',
    ]);
    expect(Object.prototype).not.toHaveProperty('role');
  });
});
