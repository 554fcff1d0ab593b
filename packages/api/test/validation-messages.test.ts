/**
 * A field that fails validation is named with a message in the API's own words ("Must be …",
 * packages/validators/src/messages.ts), not zod's (`Too big: expected number to be <=100`);
 * a schema's own message still wins, and a value that is no time at all gets one issue, not a
 * second one about its year.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Issues = { path: string; message: string }[];
const issuesOf = (res: { status: number; json: { error: { details: { issues: Issues } } } }) => {
  expect(res.status).toBe(400);
  return res.json.error.details.issues;
};

describe('validation messages', () => {
  it('say the bound a number broke', async () => {
    expect(issuesOf(await h.call('GET', '/api/users?limit=500'))).toEqual([
      { path: 'limit', message: 'Must be at most 100.' },
    ]);
    expect(issuesOf(await h.call('GET', '/api/users?limit=0'))).toEqual([
      { path: 'limit', message: 'Must be at least 1.' },
    ]);
    expect(issuesOf(await h.call('GET', '/api/users?limit=2.5'))).toEqual([
      { path: 'limit', message: 'Must be an integer.' },
    ]);
  });

  it('list the options of a choice', async () => {
    expect(issuesOf(await h.call('GET', '/api/content/posts?status=bogus'))).toEqual([
      {
        path: 'status',
        message:
          'Must be one of draft, pending_approval, scheduled, publishing, published, failed, archived.',
      },
    ]);
  });

  it('name missing, empty, too long and malformed fields', async () => {
    expect(issuesOf(await h.call('POST', '/api/users', { body: {} }))).toEqual([
      { path: 'name', message: 'Required.' },
      { path: 'email', message: 'Required.' },
      { path: 'password', message: 'Required.' },
    ]);
    const body = { name: '', email: 'nope', password: 'a password long enough' };
    expect(issuesOf(await h.call('POST', '/api/users', { body }))).toEqual([
      { path: 'name', message: 'Must not be empty.' },
      { path: 'email', message: 'Must be an email address.' },
    ]);
    const long = { ...body, name: 'n'.repeat(201), email: 'long@example.test' };
    expect(issuesOf(await h.call('POST', '/api/users', { body: long }))).toEqual([
      { path: 'name', message: 'Must be at most 200 characters long.' },
    ]);
    expect(
      issuesOf(
        await h.call('POST', '/api/users', { body: { ...body, name: 7, email: 'a@b.test' } }),
      ),
    ).toEqual([{ path: 'name', message: 'Must be a string.' }]);
  });

  it("keep a schema's own message", async () => {
    const body = { name: 'Short', email: 'short@example.test', password: 'short' };
    expect(issuesOf(await h.call('POST', '/api/users', { body }))).toEqual([
      { path: 'password', message: 'Password must be at least 8 characters.' },
    ]);
  });

  it('give a value that is no time one issue, saying the form', async () => {
    const body = { title: 'When', status: 'scheduled', scheduledAt: 'tomorrow' };
    expect(issuesOf(await h.call('POST', '/api/content/posts', { body }))).toEqual([
      {
        path: 'scheduledAt',
        message: 'Must be an ISO 8601 date and time, such as 2026-12-01T09:30:00Z.',
      },
    ]);
    // Nor one of a field's own bound: no month 13 is in the future or the past.
    const events = [{ type: 'like', occurredAt: '2026-13-01T00:00:00Z' }];
    expect(issuesOf(await h.call('POST', '/api/analytics/events', { body: { events } }))).toEqual([
      {
        path: 'events[0].occurredAt',
        message: 'Must be an ISO 8601 date and time, such as 2026-12-01T09:30:00Z.',
      },
    ]);
  });

  it('name the values a list of choices takes, where each item may be one of several', async () => {
    const body = { url: 'https://1.1.1.1/h', events: ['nope'] };
    const [issue, ...others] = issuesOf(await h.call('POST', '/api/webhooks', { body }));
    expect(others).toEqual([]);
    expect(issue).toEqual({
      path: 'events[0]',
      message: expect.stringMatching(/^Must be one of user\.created, .*webhook\.test, \*\.$/),
    });
  });

  it('call a map of names to values an object', async () => {
    const events = [{ type: 'like', properties: 'str' }];
    expect(issuesOf(await h.call('POST', '/api/analytics/events', { body: { events } }))).toEqual([
      { path: 'events[0].properties', message: 'Must be an object.' },
    ]);
  });
});
