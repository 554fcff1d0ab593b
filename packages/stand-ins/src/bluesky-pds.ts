import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type * as DevEnv from '@atproto/dev-env';
import { appViewDatabase } from './bluesky-appview-db';

/**
 * Bluesky's reference PDS (@atproto/pds through @atproto/dev-env 0.3.215, the newest that runs
 * on Node 20), on loopback with an in-memory PLC directory: not a stand-in, the real server.
 * With `appView`, the reference AppView (@atproto/bsky) indexes it too, and the PDS proxies
 * app.bsky.* queries (profiles, post counts) to it as bsky.social does to api.bsky.app.
 */

export interface BlueskyAccount {
  did: string;
  /** `alice.test`: handles on this PDS end in `.test`. */
  handle: string;
  /** The account's own password (what an app password stands in for). */
  password: string;
  /** An app password, what a person gives Chorus to connect. */
  appPassword: string;
}

export interface BlueskyPds {
  /** `http://localhost:<port>`: the `serviceUrl` to connect with. */
  url: string;
  createAccount(handle: string): Promise<BlueskyAccount>;
  /** Revokes an app password, as a person does in the Bluesky app's settings. */
  revokeAppPassword(account: BlueskyAccount): Promise<void>;
  /** An access JWT of the account that expired a minute ago, signed as the PDS signs its own. */
  expiredAccessToken(did: string): string;
  /** Resolves once the AppView has indexed everything the PDS wrote (a no-op without one). */
  indexed(): Promise<void>;
  close(): Promise<void>;
}

export interface BlueskyPdsOptions {
  /** 0 (default) for a free port. */
  port?: number;
  /** Start the AppView too (needs PostgreSQL: DATABASE_URL's server, or an in-memory PGlite). */
  appView?: boolean;
  /** The PDS's own rate limits (off in dev-env by default), for tests of 429 answers. */
  rateLimits?: boolean;
}

/**
 * A free loopback port, held by a listening socket until `release`: the AppView must know the
 * PDS's port seconds before the PDS binds it, and a port merely found free could be taken by
 * another process in between.
 */
function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        release: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/**
 * The PDS and, with `appView`, the AppView that indexes it. The port is held until just before
 * the PDS binds it; should another process still take it in that moment, both start again on
 * another port.
 */
async function startPdsAndAppView(
  { TestBsky, TestPds }: typeof DevEnv,
  plcUrl: string,
  options: BlueskyPdsOptions,
) {
  for (let attempt = 1; ; attempt++) {
    const reserved = options.port ? undefined : await reservePort();
    const port = reserved?.port ?? options.port ?? 0;
    const database = options.appView ? await appViewDatabase() : undefined;
    const appView = database
      ? await TestBsky.create({
          plcUrl,
          pdsPort: port,
          repoProvider: `ws://localhost:${port}`,
          dbPostgresUrl: database.url,
          dbPostgresSchema: 'appview',
          redisHost: '',
        })
      : undefined;
    await reserved?.release();
    try {
      const pds = await TestPds.create({
        port,
        didPlcUrl: plcUrl,
        rateLimitsEnabled: options.rateLimits ?? false,
        ...(appView
          ? { bskyAppViewUrl: appView.url, bskyAppViewDid: appView.ctx.cfg.serverDid }
          : {}),
      });
      return { pds, appView, database };
    } catch (error) {
      await appView?.close();
      await database?.drop();
      const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!reserved || !taken || attempt === 3) throw error;
    }
  }
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startBlueskyPds(options: BlueskyPdsOptions = {}): Promise<BlueskyPds> {
  // Imported here: dev-env loads the PDS, the AppView and Ozone (~5 s).
  const devEnv = await import('@atproto/dev-env');
  const { TestPlc, mockNetworkUtilities } = devEnv;
  const plc = await TestPlc.create({});
  const { pds, appView, database } = await startPdsAndAppView(devEnv, plc.url, options);
  // Handles under `.test` resolve to this PDS's accounts, as DNS would for real ones.
  mockNetworkUtilities(pds, appView);

  return {
    url: pds.url,
    async createAccount(handle) {
      const agent = pds.getClient();
      const password = randomBytes(12).toString('base64url');
      await agent.createAccount({ email: `${handle}@example.com`, handle, password });
      const { data } = await agent.com.atproto.server.createAppPassword({ name: 'Chorus' });
      return { did: agent.session?.did ?? '', handle, password, appPassword: data.password };
    },
    async revokeAppPassword(account) {
      const agent = pds.getClient();
      await agent.login({ identifier: account.handle, password: account.password });
      await agent.com.atproto.server.revokeAppPassword({ name: 'Chorus' });
    },
    expiredAccessToken(did) {
      const now = Math.floor(Date.now() / 1000);
      const header = base64url({ typ: 'at+jwt', alg: 'HS256' });
      const payload = base64url({
        scope: 'com.atproto.appPass',
        aud: pds.ctx.cfg.service.did,
        sub: did,
        iat: now - 7200,
        exp: now - 60,
      });
      const signature = createHmac('sha256', pds.jwtSecretKey())
        .update(`${header}.${payload}`)
        .digest('base64url');
      return `${header}.${payload}.${signature}`;
    },
    async indexed() {
      await pds.processAll();
      if (!appView) return;
      const last = await pds.ctx.sequencer.curr();
      // The AppView reads the PDS's firehose: wait until its cursor reaches the PDS's last event.
      for (let round = 0; round < 1000; round++) {
        await appView.sub.processAll();
        const cursor = await appView.sub.runner.getCursor();
        if (last === null || (cursor !== undefined && cursor >= last)) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error('The AppView did not index the PDS within 5 s.');
    },
    async close() {
      await pds.close();
      await appView?.close();
      await plc.close();
      await database?.drop();
    },
  };
}
