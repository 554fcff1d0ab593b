import { integrationConnections } from '@chorus/db';
import { startHostileServer, type HostileServer } from '@chorus/stand-ins';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

/**
 * A Mastodon instance is a server the user chose, and everything it answers is hostile
 * (docs/security.md, Outbound requests): here a server on loopback poses as one.
 */

let h: Harness;
let instance: HostileServer;

beforeAll(async () => {
  process.env.CHORUS_ENCRYPTION_KEY = 'c'.repeat(64);
  process.env.CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  instance = await startHostileServer();
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
  await instance?.close();
});
beforeEach(async () => {
  instance.reset();
  await h.db.delete(integrationConnections);
});

const connect = (body: Record<string, unknown>) =>
  h.call('POST', '/api/integrations/connect/mastodon', {
    body: { serviceUrl: instance.url, ...body },
  });

const FLOOD = 64 * 1024 * 1024;
/** The most of an answer Chorus reads (docs/security.md, Outbound requests). */
const ANSWER_LIMIT = 5 * 1024 * 1024;

/** The instance's one flood hung up on having written the cap and the sockets' buffers at most. */
async function hungUpEarly() {
  const [flood, ...more] = instance.floods;
  expect(more).toEqual([]);
  await flood?.closed;
  expect(flood?.hungUp).toBe(true);
  expect(flood?.written).toBeLessThan(ANSWER_LIMIT + 24 * 1024 * 1024);
}

describe('an answer larger than any real one', () => {
  it('a token check whose profile floods is 502, read no further than the cap, nothing stored', async () => {
    instance.answer('/api/v1/accounts/verify_credentials', {
      flood: FLOOD,
      fields: { id: '7', username: 'big' },
    });
    instance.answer('/api/v2/instance', { json: { domain: 'big.example' } });
    const res = await connect({ apiKey: 'a-token-of-the-instance' });
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe('integration_unreachable');
    expect(res.json.error.message).toContain('too large to read (over 5 MiB)');
    await hungUpEarly();
    expect(await h.db.select().from(integrationConnections)).toEqual([]);
  });

  it("signing in on an instance whose answer to Chorus's registration floods is 502", async () => {
    instance.answer('/api/v1/apps', { flood: FLOOD, fields: { client_id: 'id' } });
    const res = await connect({});
    expect(res.status).toBe(502);
    expect(res.json.error).toMatchObject({
      code: 'integration_unreachable',
      message: `The instance ${instance.url} answered with more than 5 MiB.`,
    });
    await hungUpEarly();
  });
});
