/**
 * The networks of `bench:publishing`, in a process of their own (as networks are on machines of
 * their own): the Mastodon and X stand-ins and Bluesky's reference PDS, each with ACCOUNTS (20)
 * accounts; in front of the PDS a recording proxy, so that the bench learns when the PDS
 * accepted each post (`createRecord` answered 200), as the stand-ins record their receipts.
 * Prints one JSON line (`NetworksReady`); serves every network's receipts as JSON at
 * GET /receipts on the proxy (never forwarded).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMastodonStandIn, startXStandIn } from '@chorus/stand-ins';
import { startBlueskyPds, type BlueskyAccount } from '@chorus/stand-ins/bluesky-pds';

export interface Receipt {
  network: 'mastodon' | 'x' | 'bluesky';
  text: string;
  at: number;
}

export interface NetworksReady {
  mastodon: { url: string; accounts: { accountId: string; token: string }[] };
  x: { url: string; users: { userId: string; token: string; refreshToken: string }[] };
  bluesky: { url: string; accounts: BlueskyAccount[] };
}

const count = Number(process.env.ACCOUNTS ?? 20);
const unlimited = { rateLimit: { limit: 10_000_000, windowMs: 60_000 } };
const [mastodon, x, pds] = await Promise.all([
  startMastodonStandIn(unlimited),
  startXStandIn(unlimited),
  startBlueskyPds(),
]);
const target = new URL(pds.url);
const ready: NetworksReady = {
  mastodon: { url: mastodon.url, accounts: [] },
  x: { url: x.url, users: [] },
  bluesky: { url: '', accounts: [] },
};
for (let i = 0; i < count; i++) {
  ready.mastodon.accounts.push(mastodon.addAccount({ username: `m${i}` }));
  ready.x.users.push(x.addUser({ username: `x${i}` }));
  ready.bluesky.accounts.push(await pds.createAccount(`bench${i}.test`));
}

const blueskyReceipts: Receipt[] = [];
const receipts = (): Receipt[] => [
  ...mastodon.published().map((s) => ({
    network: 'mastodon' as const,
    text: s.text,
    at: s.createdAt.getTime(),
  })),
  ...x.published().map((t) => ({ network: 'x' as const, text: t.text, at: t.createdAt.getTime() })),
  ...blueskyReceipts,
];

const proxy = createServer((req, res) => {
  if (req.url === '/receipts') {
    res.setHeader('content-type', 'application/json');
    return void res.end(JSON.stringify(receipts()));
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => {
          if (answer.statusCode !== 200 || !req.url?.includes('com.atproto.repo.createRecord'))
            return;
          const text = (JSON.parse(body.toString()) as { record?: { text?: string } }).record?.text;
          if (text) blueskyReceipts.push({ network: 'bluesky', text, at: Date.now() });
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end(body);
  });
});
// Longer than the clients' keep-alive, so that the proxy never closes a socket a client is
// about to reuse (undici then fails the request with UND_ERR_SOCKET).
proxy.keepAliveTimeout = 65_000;
proxy.listen(0, '127.0.0.1', () => {
  const { port } = proxy.address() as AddressInfo;
  ready.bluesky.url = `http://127.0.0.1:${port}`;
  process.stdout.write(`${JSON.stringify(ready)}\n`);
});
process.on('SIGTERM', () => {
  void Promise.all([mastodon.close(), x.close(), pds.close()]).then(() => process.exit(0));
});
