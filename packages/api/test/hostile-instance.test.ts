import { channels, integrationConnections } from '@chorus/db';
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
    // It was reached, and answered too much: never "could not be reached".
    expect(res.json.error.message).toBe(
      `Mastodon at ${instance.url} answered more than Chorus reads (over 5 MiB).`,
    );
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

const BIG = 'A'.repeat(100_000);
/** Right-to-left override … pop: what follows is shown reversed (Trojan Source). */
const REVERSED = '\u202Eevil\u202C';
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

/** The instance answers `account` to verify_credentials, on the domain it claims. */
function poseAs(account: Record<string, unknown>, domain = 'mastodon.social') {
  instance.answer('/api/v1/accounts/verify_credentials', { json: account });
  instance.answer('/api/v2/instance', { json: { domain } });
}

const channelsListed = async () =>
  (await h.call('GET', '/api/content/channels?integrationId=mastodon')).json.data as {
    name: string;
    handle: string;
    avatarUrl: string | null;
  }[];

describe("an account's profile as the instance tells it", () => {
  it('keeps a name and handle of sensible length, without bidi controls', async () => {
    poseAs({
      id: '1',
      username: `<img src=x onerror=alert(1)>${REVERSED}`,
      display_name: `${REVERSED}${BIG}`,
      avatar: 'javascript:alert(1)',
    });
    const res = await connect({ apiKey: 'a-token-of-the-instance' });
    expect(res.status).toBe(201);
    const [channel, ...others] = await channelsListed();
    expect(others).toEqual([]);
    // Cut at 200 characters, saying so; the override dropped, not the text it held.
    expect(channel?.name).toBe(`evil${'A'.repeat(195)}…`);
    // Markup stays text, as any client must show it (the dashboard's React escapes it).
    expect(channel?.handle).toBe('@<img src=x onerror=alert(1)>evil@mastodon.social');
    expect(channel?.avatarUrl).toBeNull();
    const connected = await h.call('GET', '/api/integrations/connected');
    expect(connected.json.data[0].meta.accountName).toBe(channel?.handle);
    expect(JSON.stringify(connected.json)).not.toMatch(BIDI);
  });

  it('cuts a handle at 300 characters, never inside a character', async () => {
    poseAs({ id: '2', username: `${'😀'.repeat(200)}`, display_name: 'Emoji\u2028Line' });
    expect((await connect({ apiKey: 'a-token-of-the-instance' })).status).toBe(201);
    const [channel] = await channelsListed();
    expect(channel?.name).toBe('Emoji Line');
    expect(channel?.handle).toBe(`@${'😀'.repeat(149)}…`);
    expect(channel?.handle.length).toBeLessThanOrEqual(300);
  });

  it('refuses an account id no network uses (too long, or with control characters): 502, nothing stored', async () => {
    for (const [id, domain] of [
      [`1${BIG}`, 'mastodon.social'],
      ['1\u0007', 'mastodon.social'],
      ['1\u202E2', 'mastodon.social'],
      ['1', `${'a'.repeat(300)}.example`],
    ] as const) {
      poseAs({ id, username: 'alice', display_name: 'Alice' }, domain);
      const res = await connect({ apiKey: 'a-token-of-the-instance' });
      expect(res.status).toBe(502);
      expect(res.json.error).toMatchObject({
        code: 'integration_unreachable',
        message:
          'Mastodon answered an id Chorus cannot keep for its channel: empty, longer than 300 characters, or with control characters.',
      });
      expect(await h.db.select().from(integrationConnections)).toEqual([]);
      expect(await h.db.select().from(channels)).toEqual([]);
    }
  });
});
