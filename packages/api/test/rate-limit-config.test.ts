import { createHash } from 'node:crypto';
import type { Principal } from '@chorus/auth';
import { Redis } from '@upstash/redis';
import type { Redis as TcpRedis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  anonymousBucket,
  clientIp,
  peerClient,
  trustedProxiesFromEnv,
  DEFAULT_RATE_LIMITS,
  oauthClientBucket,
  principalBucket,
  rateLimitConfigFromEnv,
} from '../src/rate-limit';
import { redisBridge } from '../src/rate-limit/redis-bridge';

describe('rate-limit configuration', () => {
  it('defaults to in-process counters and the table of docs/rate-limits-and-idempotency.md', () => {
    expect(rateLimitConfigFromEnv({})).toEqual({
      redis: null,
      limits: {},
      timeoutMs: 200,
      prefix: 'chorus:ratelimit',
    });
    expect(DEFAULT_RATE_LIMITS).toEqual({
      tiers: {
        free: { read: 600, write: 120 },
        pro: { read: 3000, write: 600 },
        enterprise: { read: 12000, write: 2400 },
      },
      oauthMultiplier: 2,
      anonymous: 60,
      oauthClient: 600,
    });
  });

  it('reads the transport: Upstash REST first, else REDIS_URL', () => {
    expect(rateLimitConfigFromEnv({ REDIS_URL: 'redis://cache:6379' }).redis).toEqual({
      url: 'redis://cache:6379',
    });
    const both = rateLimitConfigFromEnv({
      REDIS_URL: 'redis://cache:6379',
      UPSTASH_REDIS_REST_URL: 'https://eu1.upstash.io',
      UPSTASH_REDIS_REST_TOKEN: 'secret',
    });
    expect(both.redis).toEqual({ restUrl: 'https://eu1.upstash.io', restToken: 'secret' });
  });

  it('reads overrides, timeout and prefix', () => {
    const config = rateLimitConfigFromEnv({
      RATE_LIMITS: '{"free":{"read":1000},"oauthMultiplier":3,"anonymous":120,"oauthClient":900}',
      RATE_LIMIT_TIMEOUT_MS: '50',
      RATE_LIMIT_PREFIX: 'eu:rl',
    });
    expect(config).toMatchObject({
      limits: { free: { read: 1000 }, oauthMultiplier: 3, anonymous: 120, oauthClient: 900 },
      timeoutMs: 50,
      prefix: 'eu:rl',
    });
  });

  it('stops start-up naming the variable that is wrong', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ UPSTASH_REDIS_REST_URL: 'https://x.upstash.io' }, /^UPSTASH_REDIS_REST_TOKEN/],
      [{ UPSTASH_REDIS_REST_TOKEN: 't' }, /^UPSTASH_REDIS_REST_URL/],
      [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL/],
      [{ RATE_LIMITS: '{free' }, /^RATE_LIMITS is not valid JSON/],
      [{ RATE_LIMITS: '{"free":{"read":-1}}' }, /^RATE_LIMITS is invalid at "free.read"/],
      [{ RATE_LIMITS: '{"gold":{"read":1}}' }, /^RATE_LIMITS is invalid/],
      [{ RATE_LIMIT_TIMEOUT_MS: 'soon' }, /^RATE_LIMIT_TIMEOUT_MS/],
    ];
    for (const [env, message] of cases) {
      expect(() => rateLimitConfigFromEnv(env)).toThrow(message);
    }
  });
});

describe('buckets', () => {
  const principal = (credential: Principal['credential'], tier: Principal['tier'] = 'pro') =>
    ({
      accountId: 'acc_1',
      userId: 'usr_1',
      role: 'admin',
      tier,
      credential,
      scopes: [],
    }) satisfies Principal;
  const limits = DEFAULT_RATE_LIMITS;

  it('puts the API keys of an account in one budget, reads apart from writes', () => {
    const a = principalBucket(principal({ kind: 'api_key', id: 'key_a' }), 'GET', limits);
    const b = principalBucket(principal({ kind: 'api_key', id: 'key_b' }), 'HEAD', limits);
    const write = principalBucket(principal({ kind: 'api_key', id: 'key_a' }), 'PATCH', limits);
    expect(a).toEqual(b);
    expect(a.limit).toBe(3000);
    expect(write.limit).toBe(600);
    expect(write.key).not.toBe(a.key);
  });

  it('gives an OAuth token twice the figure, per account, user and client', () => {
    const token = (id: string, clientId: string) =>
      principalBucket(principal({ kind: 'oauth', id, clientId }, 'free'), 'GET', limits);
    expect(token('tok_1', 'app_1').limit).toBe(1200);
    // A refreshed token of the same client keeps the budget; another client has its own.
    expect(token('tok_2', 'app_1').key).toBe(token('tok_1', 'app_1').key);
    expect(token('tok_1', 'app_2').key).not.toBe(token('tok_1', 'app_1').key);
    expect(
      principalBucket(principal({ kind: 'oauth', id: 't', clientId: 'c' }, 'free'), 'POST', limits)
        .limit,
    ).toBe(240);
  });

  it('counts unauthenticated requests per client IP', () => {
    expect(anonymousBucket('203.0.113.9', limits)).toEqual({ key: 'ip:203.0.113.9', limit: 60 });
  });

  it('counts a confidential OAuth client at the machine endpoints per client', () => {
    expect(oauthClientBucket('app_1', limits)).toEqual({ key: 'oauth-client:app_1', limit: 600 });
  });
});

describe('the client address', () => {
  const ip = (
    headers: Record<string, string>,
    remoteAddress?: string,
    env: Record<string, string> = {},
  ) =>
    clientIp(new Request('http://localhost/api/users', { headers }), {
      remoteAddress,
      trusted: trustedProxiesFromEnv(env),
    });
  const xff = (value: string) => ({ 'x-forwarded-for': value });

  it("is the socket's address by default, whatever X-Forwarded-For or X-Real-IP claim", () => {
    expect(ip(xff('203.0.113.9'), '198.51.100.1')).toBe('198.51.100.1');
    expect(ip({ 'x-real-ip': '203.0.113.10' }, '198.51.100.1')).toBe('198.51.100.1');
    expect(ip({}, '::ffff:198.51.100.2')).toBe('198.51.100.2');
    expect(ip({}, '2001:DB8::1')).toBe('2001:db8::1');
  });

  it('reads X-Forwarded-For from the right, only through the hops or proxies named', () => {
    const hops = { CHORUS_TRUSTED_PROXIES: '1' };
    // The client put 1.2.3.4 in the header itself; the load balancer appended the real one.
    expect(ip(xff('1.2.3.4, 203.0.113.9'), '10.0.0.2', hops)).toBe('203.0.113.9');
    const cidrs = { CHORUS_TRUSTED_PROXIES: '10.0.0.0/8, 2001:db8::/32' };
    expect(ip(xff('1.2.3.4, 203.0.113.9, 10.1.1.1'), '10.0.0.2', cidrs)).toBe('203.0.113.9');
    // A peer that is not a named proxy is the client, whatever it forwards.
    expect(ip(xff('1.2.3.4'), '198.51.100.3', cidrs)).toBe('198.51.100.3');
    expect(ip(xff('not-an-ip'), '10.0.0.2', hops)).toBe('unknown');
  });

  it('without a socket address (Next), is the last X-Forwarded-For entry', () => {
    expect(ip(xff('203.0.113.9'))).toBe('203.0.113.9');
    expect(ip(xff('1.2.3.4, 203.0.113.9'))).toBe('203.0.113.9');
    expect(ip({})).toBe('unknown');
  });

  it('from the socket alone (headers unread), is the peer unless the peer is a trusted proxy', () => {
    const peer = (address: string | undefined, env: Record<string, string> = {}) =>
      peerClient(address, trustedProxiesFromEnv(env));
    expect(peer('::ffff:198.51.100.2')).toBe('198.51.100.2');
    expect(peer('10.0.0.2', { CHORUS_TRUSTED_PROXIES: '1' })).toBeUndefined();
    const cidrs = { CHORUS_TRUSTED_PROXIES: '10.0.0.0/8' };
    expect(peer('10.0.0.2', cidrs)).toBeUndefined();
    expect(peer('198.51.100.3', cidrs)).toBe('198.51.100.3');
    expect(peer(undefined)).toBeUndefined();
  });

  it('refuses a bad CHORUS_TRUSTED_PROXIES, naming it', () => {
    expect(() => trustedProxiesFromEnv({ CHORUS_TRUSTED_PROXIES: '10.0.0.0/99' })).toThrow(
      /CHORUS_TRUSTED_PROXIES/,
    );
    expect(() => trustedProxiesFromEnv({ CHORUS_TRUSTED_PROXIES: 'lb.internal' })).toThrow(
      /CHORUS_TRUSTED_PROXIES/,
    );
  });
});

describe('the TCP bridge for @upstash/redis', () => {
  /** A stand-in for an ioredis client that records commands and answers like Redis 7.0. */
  function fakeRedis() {
    const sent: string[][] = [];
    const scripts = new Map<string, string>();
    const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
    const replyError = (message: string) =>
      Object.assign(new Error(message), { name: 'ReplyError' });
    const run = async (command: string[]): Promise<unknown> => {
      sent.push(command);
      const [name = '', first = ''] = command;
      if (name === 'eval') {
        if (first.startsWith('#!')) throw replyError('ERR Unexpected flag in script shebang');
        scripts.set(sha1(first), first);
        return [4, 5];
      }
      if (name === 'evalsha') {
        if (!scripts.has(first)) throw replyError('NOSCRIPT No matching script.');
        return [3, 5];
      }
      if (name === 'incrby') return Number(command[2]);
      return 'OK';
    };
    const batch = (commands: string[][]) => ({
      exec: async () =>
        Promise.all(
          commands.map((c) =>
            run(c).then(
              (result) => [null, result],
              (error: Error) => [error, null],
            ),
          ),
        ),
    });
    const client = {
      call: (name: string, ...args: string[]) => run([name, ...args]),
      pipeline: batch,
      multi: batch,
    };
    return { client: client as unknown as TcpRedis, sent };
  }

  it('strips the script shebang and maps the library sha to the stripped one', async () => {
    const { client, sent } = fakeRedis();
    const redis = new Redis(redisBridge(client));
    const script = '#!lua flags=allow-key-locking\n  return {1, 2}';
    const librarySha = createHash('sha1').update(script).digest('hex');
    const strippedSha = createHash('sha1').update('  return {1, 2}').digest('hex');

    await expect(redis.evalsha(librarySha, ['k'], [5])).rejects.toThrow(/NOSCRIPT/);
    expect(await redis.eval(script, ['k'], [5, 1_000])).toEqual([4, 5]);
    expect(await redis.evalsha(librarySha, ['k'], [5])).toEqual([3, 5]);
    expect(sent.at(1)).toEqual(['eval', '  return {1, 2}', '1', 'k', '5', '1000']);
    expect(sent.at(2)).toEqual(['evalsha', strippedSha, '1', 'k', '5']);
  });

  it('answers pipelines and transactions with one reply per command', async () => {
    const { client, sent } = fakeRedis();
    const redis = new Redis(redisBridge(client));
    expect(await redis.pipeline().set('a', 1).incrby('b', 2).exec()).toEqual(['OK', 2]);
    expect(await redis.multi().incrby('c', 7).exec()).toEqual([7]);
    expect(sent).toEqual([
      ['set', 'a', '1'],
      ['incrby', 'b', '2'],
      ['incrby', 'c', '7'],
    ]);
  });
});
