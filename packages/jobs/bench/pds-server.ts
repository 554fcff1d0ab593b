/**
 * Bluesky's reference PDS for `bench:publishing`, in a process of its own (as a network is on
 * machines of its own): ACCOUNTS (20) accounts, and in front of the PDS a recording proxy, so
 * that the bench learns when the PDS accepted each post (`createRecord` answered 200), as the
 * stand-ins record their receipts. Prints one JSON line: { url, accounts }; serves the
 * receipts as JSON at GET /receipts (never forwarded).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBlueskyPds, type BlueskyAccount } from '@chorus/stand-ins/bluesky-pds';

const pds = await startBlueskyPds();
const target = new URL(pds.url);
const accounts: BlueskyAccount[] = [];
for (let i = 0; i < Number(process.env.ACCOUNTS ?? 20); i++) {
  accounts.push(await pds.createAccount(`bench${i}.test`));
}

const receipts: { text: string; at: number }[] = [];
const proxy = createServer((req, res) => {
  if (req.url === '/receipts') {
    res.setHeader('content-type', 'application/json');
    return void res.end(JSON.stringify(receipts));
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
          if (text) receipts.push({ text, at: Date.now() });
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end(body);
  });
});
proxy.listen(0, '127.0.0.1', () => {
  const { port } = proxy.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, accounts })}\n`);
});
process.on('SIGTERM', () => void pds.close().then(() => process.exit(0)));
