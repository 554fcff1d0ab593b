/**
 * `npm run bench:publishing`: the publishing engine under load (docs/publishing.md,
 * "Benchmark"). For each size (TARGETS, default "1000,10000"), targets due over one minute
 * across the Mastodon and X stand-ins and Bluesky's reference PDS (networks-server.ts, a process
 * of their own at NETWORK_NICE), sent by WORKERS (2) real workers in a process of their
 * own (publishing-workers.ts); reports the lag from
 * `scheduledAt` to the stand-in's receipt (p50, p99), the engine's throughput against the
 * networks' own capacity measured in the same run (the providers called directly, with the
 * same concurrency and no database), and checks that no target was sent twice; and the API's
 * own latency (its REST door in a process of its own, as `npm start` serves it, read at a
 * steady 20 requests a second by a third process) before the run, on the same posts, and while
 * it runs. Run it
 * with DATABASE_URL set (PostgreSQL); without it, an embedded PGlite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { eq, inArray, postTargets, posts, sql, type Db } from '@chorus/db';
import { createTestServerDatabase } from '@chorus/db/testing';
import {
  createAccount,
  createApiKey,
  newId,
  PROVIDERS,
  type Provider,
  type ProviderCredentials,
} from '@chorus/services';
import type { NetworksReady, Receipt } from './networks-server';
import { publishingTiming } from '../src';
import { seedChannel } from '../test/publishing-fixtures';

const SIZES = (process.env.TARGETS ?? '1000,10000').split(',').map(Number);
const WINDOW_MS = Number(process.env.WINDOW_S ?? 60) * 1000;
const WORKERS = Number(process.env.WORKERS ?? 2);
/** How long the API is read before the run: as long as the run, so both p99s rest on as many samples. */
const IDLE_S = Number(process.env.IDLE_S ?? process.env.WINDOW_S ?? 60);
/**
 * The workers' scheduling priority (`nice`, 0–19; default 0): on one machine with the API, a
 * deployment can run `nice npm run worker` so the API is served first.
 */
const WORKER_NICE = Number(process.env.WORKER_NICE ?? 0);
/** The networks' priority (default 19, the lowest): see networksServer. */
const NETWORK_NICE = Number(process.env.NETWORK_NICE ?? 19);
/** Channels per network: the stand-ins count their rate limits per account. */
const CHANNELS = 20;

const benchDir = fileURLToPath(new URL('.', import.meta.url));

/** Every process the bench started and that still runs: a failed run stops them too. */
const children = new Set<ChildProcess>();

/**
 * Runs one of this folder's scripts in a Node process of its own, under `nice` when `niceness`
 * is above 0 (every thread of the process, which `os.setPriority` on its pid is not: Linux
 * sets a thread's priority, and that pid names only the main thread).
 */
const script = (file: string, env: Record<string, string>, niceness = 0) => {
  const node = [process.execPath, '--import', 'tsx', `${benchDir}${file}`];
  const [command = '', ...args] = niceness > 0 ? ['nice', '-n', String(niceness), ...node] : node;
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
};

/** The REST door alone on a free loopback port; answers its base URL once it listens. */
async function apiServer(databaseUrl: string) {
  const child = script('api-server.ts', {
    DATABASE_URL: databaseUrl,
    RATE_LIMITS: JSON.stringify({ free: { read: 1e9, write: 1e9 } }),
  });
  const [line] = (await once(child.stdout ?? child, 'data')) as [Buffer];
  const port = /listening (\d+)/.exec(line.toString())?.[1];
  if (!port) throw new Error(`the API server did not start: ${line.toString()}`);
  return { child, base: `http://127.0.0.1:${port}` };
}

interface ProbeResult {
  count: number;
  errors: number;
  p50: number;
  p99: number;
}

/** Reads the API at a steady rate for `seconds` from a third process (api-probe.ts). */
async function probe(base: string, token: string, seconds: number): Promise<ProbeResult> {
  const child: ChildProcess = script('api-probe.ts', {
    BASE: base,
    TOKEN: token,
    SECONDS: String(seconds),
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'exit');
  return JSON.parse(out) as ProbeResult;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/**
 * The networks (networks-server.ts: the Mastodon and X stand-ins and the reference PDS) in a
 * process of their own, at NETWORK_NICE: they stand for machines elsewhere, so they should
 * take only the CPU that Chorus leaves over, not Chorus's.
 */
async function networksServer() {
  const child = script('networks-server.ts', { ACCOUNTS: String(CHANNELS + 1) }, NETWORK_NICE);
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  const closed = once(lines, 'close').then(() => {
    throw new Error('the networks did not start');
  });
  const [line] = (await Promise.race([once(lines, 'line'), closed])) as [string];
  const ready = JSON.parse(line) as NetworksReady;
  // The engine finds X where the stand-in is (the workers' process inherits this).
  process.env.CHORUS_INTEGRATION_X_API_URL = ready.x.url;
  return {
    ...ready,
    receipts: async () =>
      (await (await fetch(`${ready.bluesky.url}/receipts`)).json()) as Receipt[],
    close: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

type Networks = Awaited<ReturnType<typeof networksServer>>;

/** A channel's network, where the engine finds it, and its credentials. */
interface BenchChannel {
  network: 'mastodon' | 'x' | 'bluesky';
  externalId: string;
  credentials: ProviderCredentials;
  apiUrl: string;
}

/** Channel `i` of each network: a new account on the stand-ins, the PDS's account `i`. */
async function benchChannels(networks: Networks, i: number): Promise<BenchChannel[]> {
  const m = networks.mastodon.accounts[i];
  const u = networks.x.users[i];
  const account = networks.bluesky.accounts[i];
  if (!m || !u || !account) throw new Error(`the networks have no account ${i}`);
  const [found] = await (PROVIDERS.bluesky as Provider).discoverChannels(
    { accessToken: account.appPassword, extra: { handle: account.handle } },
    { apiUrl: networks.bluesky.url },
  );
  if (!found?.credentials) throw new Error(`no Bluesky session for ${account.handle}`);
  return [
    {
      network: 'mastodon',
      externalId: m.accountId,
      credentials: { accessToken: m.token, extra: { serviceUrl: networks.mastodon.url } },
      apiUrl: networks.mastodon.url,
    },
    {
      network: 'x',
      externalId: u.userId,
      credentials: { accessToken: u.token, refreshToken: u.refreshToken },
      apiUrl: networks.x.url,
    },
    {
      network: 'bluesky',
      externalId: found.externalId,
      credentials: found.credentials,
      apiUrl: networks.bluesky.url,
    },
  ];
}

/**
 * What each network can take: its provider called directly, `concurrency` at a time, for
 * `seconds` (the PDS takes far fewer posts a second than the stand-ins: a count would not fit
 * both). Answers posts a second by network.
 */
async function capacity(networks: Networks, seconds: number, concurrency: number) {
  const rates: Record<string, number> = Object.create(null);
  for (const channel of await benchChannels(networks, CHANNELS)) {
    const provider = PROVIDERS[channel.network] as Provider;
    const started = Date.now();
    const until = started + seconds * 1000;
    let issued = 0;
    let sent = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < until) {
          const request = {
            targetId: newId('tgt'),
            revision: 0,
            channel: {
              externalId: channel.externalId,
              handle: '@capacity',
              credentials: channel.credentials,
            },
            parts: [{ text: `Capacity ${issued++}`, media: [] }],
            firstComment: null,
            progress: {},
            saveProgress: async () => {},
          };
          // What a network refuses or drops under this load is not part of what it takes.
          await provider.publish(request, { apiUrl: channel.apiUrl }).then(
            () => void sent++,
            () => void failed++,
          );
        }
      }),
    );
    rates[channel.network] = (sent / (Date.now() - started)) * 1000;
    if (failed > 0) console.log(`${channel.network}: ${failed} of ${issued} capacity posts failed`);
  }
  return rates;
}

/** CHANNELS channels on each network, by network. */
async function seed(db: Db, networks: Networks, accountId: string) {
  const ids: Record<BenchChannel['network'], string[]> = { mastodon: [], x: [], bluesky: [] };
  for (let i = 0; i < CHANNELS; i++) {
    for (const channel of await benchChannels(networks, i)) {
      ids[channel.network].push(
        await seedChannel(db, {
          accountId,
          integrationId: channel.network,
          kind: channel.network === 'x' ? 'oauth2' : 'api_key',
          onChannel: true,
          externalId: channel.externalId,
          credentials: channel.credentials,
        }),
      );
    }
  }
  return ids;
}

/**
 * The channel of each target in turn: Bluesky for a `blueskyShare` of them, spread evenly,
 * and Mastodon and X by turns for the rest (so a post's two targets are on two networks);
 * each network's channels in turn.
 */
function channelPicker(channels: Record<BenchChannel['network'], string[]>, blueskyShare: number) {
  let k = 0;
  let other = 0;
  const used = { mastodon: 0, x: 0, bluesky: 0 };
  return () => {
    const onBluesky = Math.floor((k + 1) * blueskyShare) > Math.floor(k * blueskyShare);
    k++;
    const network = onBluesky ? 'bluesky' : other++ % 2 === 0 ? 'mastodon' : 'x';
    const list = channels[network];
    return list[used[network]++ % list.length] ?? '';
  };
}

async function run(size: number) {
  const database = await createTestServerDatabase();
  const { db } = database;
  const networks = await networksServer();
  const { accountId, adminId } = await createAccount(db, {
    name: 'Bench',
    admin: { name: 'Bench', email: 'bench@bench.test', password: 'correct horse battery' },
  });
  const channels = await seed(db, networks, accountId);
  const concurrency = publishingTiming().concurrency * WORKERS;
  const capacityPerSecond = await capacity(networks, 3, concurrency);
  // The PDS is offered at most half of what it took alone (it takes far less than the
  // stand-ins), so that the run measures Chorus rather than the PDS's own ceiling.
  const offered = size / (WINDOW_MS / 1000);
  const blueskyShare = Math.min(1 / 3, (capacityPerSecond.bluesky ?? 0) / 2 / offered);
  const nextChannel = channelPicker(channels, blueskyShare);
  const api = await apiServer(database.url);
  const { secret } = await createApiKey({
    db,
    userId: adminId,
    name: 'Bench probe',
    scopes: ['content:read'],
    environment: 'live',
  });

  // Two targets per post (on two networks), due over the window. They are written first, due
  // an hour ahead, so that the idle probe reads the same account as the busy one; then moved
  // to start 5 s ahead, and the workers started.
  const placeholder = Date.now() + 3_600_000;
  let start = placeholder;
  const postCount = size / 2;
  const due = new Map<string, number>();
  const ids: string[] = [];
  for (let i = 0; i < postCount; i += 500) {
    const rows = [];
    const targets = [];
    for (let j = i; j < Math.min(postCount, i + 500); j++) {
      const id = newId('post');
      const at = start + Math.random() * WINDOW_MS;
      ids.push(id);
      rows.push({
        id,
        accountId,
        title: `Bench ${j}`,
        content: `Bench ${j}`,
        status: 'scheduled' as const,
        scheduledAt: new Date(at),
      });
      for (let t = 0; t < 2; t++) {
        const text = `Bench ${j} #${t}`;
        due.set(text, at);
        targets.push({
          id: newId('tgt'),
          postId: id,
          accountId,
          channelId: nextChannel(),
          position: t,
          content: text,
        });
      }
    }
    await db.insert(posts).values(rows);
    await db.insert(postTargets).values(targets);
  }

  const idle = await probe(api.base, secret, IDLE_S);
  const shift = Date.now() + 5_000 - placeholder;
  await db
    .update(posts)
    .set({ scheduledAt: sql`${posts.scheduledAt} + make_interval(secs => ${shift / 1000})` })
    .where(eq(posts.accountId, accountId));
  for (const [text, at] of due) due.set(text, at + shift);
  start += shift;

  // The busy probe first: a process started after the workers' would share their priority.
  const busy = probe(api.base, secret, (start + WINDOW_MS - Date.now()) / 1000);
  const workers = script(
    'publishing-workers.ts',
    { DATABASE_URL: database.url, WORKERS: String(WORKERS) },
    WORKER_NICE,
  );
  await once(workers.stdout ?? workers, 'data');
  console.log(
    `${size} targets due over ${WINDOW_MS / 1000} s (${(blueskyShare * 100).toFixed(0)}% on Bluesky), ${WORKERS} workers in a process of their own${WORKER_NICE > 0 ? ` (nice ${WORKER_NICE})` : ''}…`,
  );
  const receipts = async () =>
    (await networks.receipts()).filter((r) => r.text.startsWith('Bench '));
  for (;;) {
    const got = await receipts();
    if (got.length >= size) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // Let duplicates, if any, arrive before counting.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const got = await receipts();
  const lagsOf = (receipts: typeof got) =>
    receipts.map((r) => r.at - (due.get(r.text) ?? NaN)).sort((a, b) => a - b);
  const lags = lagsOf(got);
  const summary = (sorted: number[]) =>
    `p50 ${percentile(sorted, 50).toFixed(0)}, p99 ${percentile(sorted, 99).toFixed(0)}, max ${(sorted.at(-1) ?? NaN).toFixed(0)}`;
  const perNetwork = (['mastodon', 'x', 'bluesky'] as const)
    .map((network) => `${network} ${summary(lagsOf(got.filter((r) => r.network === network)))}`)
    .join('; ');
  const twice = got.length - new Set(got.map((r) => r.text)).size;
  const first = Math.min(...due.values());
  const last = Math.max(...got.map((r) => r.at));
  const settled = await db
    .select({ status: posts.status })
    .from(posts)
    .where(inArray(posts.id, ids.slice(0, 1000)));
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`engine: ${engine}, targets: ${size}, sent: ${got.length}, sent twice: ${twice}`);
  console.log(`lag scheduledAt → receipt ms: ${summary(lags)} (${perNetwork})`);
  console.log(
    `throughput: ${((got.length / (last - first)) * 1000).toFixed(0)} targets/s over the window (offered ${((size / WINDOW_MS) * 1000).toFixed(0)}/s); networks' capacity at the same concurrency (${concurrency}): ${Object.entries(
      capacityPerSecond,
    )
      .map(([network, rate]) => `${network} ${rate.toFixed(0)}/s`)
      .join(', ')}`,
  );
  console.log(
    `posts settled (first 1000): ${settled.filter((s) => s.status === 'published').length} published`,
  );
  const during = await busy;
  console.log(
    `API p50/p99 ms (GET /api/content/posts, 20/s): idle ${idle.p50.toFixed(1)}/${idle.p99.toFixed(1)}, while publishing ${during.p50.toFixed(1)}/${during.p99.toFixed(1)} (p99 ×${(during.p99 / idle.p99).toFixed(2)}; errors ${idle.errors + during.errors})`,
  );
  const target = size <= 1000 ? 2000 : 5000;
  console.log(
    `target p99 < ${target} ms: ${percentile(lags, 99) < target ? 'met' : 'MISSED'}; no target twice: ${twice === 0 ? 'met' : 'MISSED'}`,
  );
  workers.kill('SIGTERM');
  await once(workers, 'exit');
  api.child.kill('SIGTERM');
  await once(api.child, 'exit');
  await networks.close();
  await database.close();
}

async function main() {
  for (const size of SIZES) await run(size);
}

main().catch((error: unknown) => {
  console.error(error);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
});
