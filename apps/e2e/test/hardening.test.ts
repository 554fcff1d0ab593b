/**
 * Issue 20's findings from outside, replayed against the real server (`npm start`, started by
 * ./server.ts): what a client following the contract, or an attacker, sees.
 */
import { spawn } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { callApi } from './api';
import { cliApiKey } from './cli';
import { proc } from './proc';
import { freePort, startChorus, type Chorus } from './processes';
import { ADMIN } from './server';

const base = new URL(inject('base'));
const root = inject('root');

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  localPort?: number;
}

/** A request with a body written in pieces; resolves with the answer, whatever the rest does. */
function send(
  method: string,
  path: string,
  opts: {
    headers?: Record<string, string | number>;
    body?: Buffer;
    /** Write this many bytes of filler after `body` (a big upload). */
    agent?: Agent;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: opts.headers,
        agent: opts.agent ?? false,
      },
      (res) => {
        const localPort = (res.socket as Socket | null)?.localPort;
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, localPort }),
        );
      },
    );
    // A refused upload's remaining writes may fail once answered: the answer is what counts.
    req.on('error', (error) => setTimeout(() => reject(error), 5000));
    const body = opts.body ?? Buffer.alloc(0);
    for (let at = 0; at < body.byteLength; at += 64 * 1024)
      req.write(body.subarray(at, at + 64 * 1024));
    req.end();
  });
}

describe('sign-in bodies', () => {
  it('refuses a 200 MB form to the credentials callback with 413 in the envelope, unread', async () => {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          method: 'POST',
          path: '/api/auth/callback/credentials',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': 200 * 1024 * 1024,
          },
          agent: false,
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', (error) => setTimeout(() => reject(error), 5000));
      req.write(`email=a%40b.test&password=${'p'.repeat(60_000)}`);
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.text)).toMatchObject({
      success: false,
      error: { code: 'payload_too_large', status: 413 },
    });
  });

  it('counts sign-in attempts per address (rate-limit headers on the callback)', async () => {
    const answer = await send('POST', '/api/auth/callback/credentials', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from('csrfToken=x&email=nobody%40example.test&password=wrong-password'),
    });
    expect(answer.status).toBeLessThan(500);
    expect(Number(answer.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(answer.headers['x-ratelimit-remaining']).toBeDefined();
  });
});

describe('dashboard server actions', () => {
  it("spend the session's rate-limit budget, the same one as the tRPC door", async () => {
    // A user of its own: a session's budget is its user's, and another file's requests as the
    // admin (in this window, or the last one the sliding window still weighs) would move it.
    const user = {
      email: `budget-${Date.now()}@e2e.test`,
      password: 'budget-password',
    };
    const key = await cliApiKey(ADMIN.email, 'e2e-hardening-budget', 'write');
    const created = await callApi(key, 'POST', '/api/users', { ...user, name: 'Budget' });
    expect(created.status).toBe(201);
    const cookies = new Map<string, string>();
    const keep = (answer: Answer) => {
      for (const line of [answer.headers['set-cookie'] ?? []].flat()) {
        const [pair = ''] = line.split(';');
        const [name = '', ...value] = pair.split('=');
        cookies.set(name, value.join('='));
      }
    };
    const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const csrf = await send('GET', '/api/auth/csrf');
    keep(csrf);
    const { csrfToken } = JSON.parse(csrf.text) as { csrfToken: string };
    const signIn = await send('POST', '/api/auth/callback/credentials', {
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(new URLSearchParams({ csrfToken, ...user }).toString()),
    });
    keep(signIn);
    expect(signIn.status).toBe(302);
    const sameOrigin = { cookie: cookie(), origin: base.origin };
    // A server action as the browser sends one (this id names none: Next refuses it, after).
    const action = () =>
      send('POST', '/dashboard', {
        headers: { ...sameOrigin, 'next-action': '0'.repeat(40), 'content-type': 'text/plain' },
        body: Buffer.from('[]'),
      });
    const remaining = (answer: Answer) => Number(answer.headers['x-ratelimit-remaining']);
    // The three requests in one minute window: across a boundary, the sliding window weighs
    // the last window's count a little less each second, and a request may not show.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const first = await action();
    expect(first.headers['x-ratelimit-limit']).toBeDefined();
    // A tRPC mutation of the same session (refused for its input, counted all the same).
    const mutation = await send('POST', '/api/trpc/posts.create', {
      headers: { ...sameOrigin, 'content-type': 'application/json' },
      body: Buffer.from('{}'),
    });
    expect(mutation.status).toBe(400);
    expect(remaining(mutation)).toBe(remaining(first) - 1);
    expect(remaining(await action())).toBe(remaining(first) - 2);
  });
});

describe('protocol upgrades in production', () => {
  it('answers 50 upgrades to /_next/* at once, and closes them', async () => {
    const upgrade = () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(base.port), base.hostname);
        let answer = '';
        socket.setTimeout(30_000, () => socket.destroy(new Error('an upgrade got no answer')));
        socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
        socket.write(
          `GET /_next/webpack-hmr HTTP/1.1\r\nHost: ${base.host}\r\nConnection: Upgrade\r\n` +
            'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        );
      });
    const answers = await Promise.all(Array.from({ length: 50 }, upgrade));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      expect(JSON.parse(body)).toMatchObject({ success: false, error: { status: 400 } });
    }
  });
});

describe('a refused upload', () => {
  it('answers 415 and leaves the connection usable: the next request on the keep-alive agent succeeds', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e-refused-upload', 'read,content:write');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const boundary = 'e2e-boundary';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.exe"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\nMZ',
        ),
        Buffer.alloc(400 * 1024, 0x41),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const refused = await send('POST', '/api/content/media', {
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.byteLength,
        },
        body,
      });
      expect(refused.status).toBe(415);
      const next = await send('GET', '/api/users', {
        agent,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(next.status).toBe(200);
      expect(next.localPort).toBe(refused.localPort);
    } finally {
      agent.destroy();
    }
  });
});

describe("the README's first API key", () => {
  it('can try every area: users, posts, media, webhooks, analytics', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const command = /api-key create --email admin@example\.com[^)]*?--scopes (\S+?)\)/s.exec(
      readme,
    );
    expect(command, 'the quick start makes a key').not.toBeNull();
    const scopes = command?.[1] ?? '';
    const key = await cliApiKey(ADMIN.email, 'e2e-readme', scopes);
    expect((await callApi(key, 'GET', '/api/users')).status).toBe(200);
    const post = await callApi(key, 'POST', '/api/content/posts', { title: 'From the README' });
    expect(post.status).toBe(201);
    expect((await callApi(key, 'GET', '/api/content/media')).status).toBe(200);
    expect((await callApi(key, 'GET', '/api/webhooks')).status).toBe(200);
    const events = await callApi(key, 'POST', '/api/analytics/events', {
      events: [{ type: 'view', contentId: post.json.data.id }],
    });
    expect(events.status).toBe(201);
    expect((await callApi(key, 'GET', '/api/analytics/stats')).status).toBe(200);
    // And each scope is explained where the README points.
    const security = await readFile(join(root, 'docs/security.md'), 'utf8');
    for (const scope of scopes.split(','))
      expect(security, scope).toMatch(new RegExp(`\\| \`${scope}\` +\\|`));
  });
});

describe('npm start on a port in use', () => {
  it('says which port is taken and exits non-zero, announcing nothing', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const { port } = holder.address() as AddressInfo;
    const dataDir = await mkdtemp(join(tmpdir(), 'chorus-port-'));
    try {
      const env = { ...inject('env'), PORT: String(port), CHORUS_DATA_DIR: dataDir };
      const child = spawn('npm', ['start'], {
        cwd: root,
        env: env as unknown as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, output).not.toBe(0);
      expect(output).toContain(`Port ${port} is already in use`);
      expect(output).not.toContain('Serving on');
      expect(output).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start stopped from outside', () => {
  /** The processes of a process group: they keep it when their parent dies. */
  const inGroup = (pgid: number) => proc.all().filter((pid) => proc.group(pid) === pgid);

  /** Waits up to 15 s for the group to empty, then asserts it did and the port is free. */
  async function expectAllGone(pgid: number, port: number) {
    const deadline = Date.now() + 15_000;
    while (inGroup(pgid).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(inGroup(pgid).map(proc.commandLine)).toEqual([]);
    const answered = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      () => true,
      () => false,
    );
    expect(answered).toBe(false);
  }

  /** `npm start` of an instance of its own (no worker) for `run`, stopped and removed after. */
  async function withInstance(run: (chorus: Chorus, port: number) => Promise<void>) {
    const port = await freePort();
    const dataDir = await mkdtemp(join(tmpdir(), 'chorus-stopped-'));
    const chorus = await startChorus(root, {
      ...inject('env'),
      PORT: String(port),
      CHORUS_DATA_DIR: dataDir,
      CHORUS_WORKER: 'false',
    });
    try {
      await run(chorus, port);
    } finally {
      await chorus.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  // `docker stop` and a service manager signal the main process only, not its group: npm must
  // hand the signal down (the scripts `exec`, so no shell sits between npm and node to drop it).
  it('stops every process and frees the port on a SIGTERM to npm itself', () =>
    withInstance(async (chorus, port) => {
      process.kill(chorus.pid, 'SIGTERM');
      await expectAllGone(chorus.pid, port);
    }));

  it('killed without warning (the supervisor), takes its HTTP server and Next with it, freeing the port for the restarted instance', () =>
    withInstance(async (chorus, port) => {
      const server = inGroup(chorus.pid).find((pid) =>
        proc.commandLine(pid).includes('src/serve.ts'),
      );
      if (!server) throw new Error(`no HTTP server process among ${chorus.pid}'s group`);
      // Its parent is the supervisor (src/start.ts): a crash there, as a kill -9.
      process.kill(proc.parent(server), 'SIGKILL');
      await expectAllGone(chorus.pid, port);
    }));
});
