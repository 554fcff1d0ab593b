/**
 * The product as a new user runs it: `npm start` (build, database, migrations, first admin,
 * production server; started once by ./server.ts), the CLI printing a key, REST calls with it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { cliApiKey } from './cli';
import { proc, processRunning } from './proc';
import { ADMIN } from './server';

const base = inject('base');
const dataDir = inject('dataDir');
const output = inject('startOutput');
const root = inject('root');
const startPid = inject('startPid');

/** Inodes of listening TCP sockets (state 0A), IPv4 and IPv6. */
const tcpListeners = () =>
  new Set(
    ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
      readFileSync(table, 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        .filter((fields) => fields[3] === '0A')
        .map((fields) => fields[9] ?? ''),
    ),
  );
/** Paths of listening Unix sockets (state 01, accepting connections), by inode. */
const unixListeners = () =>
  new Map(
    readFileSync('/proc/net/unix', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '00010000' && fields[7])
      .map((fields) => [fields[6] ?? '', fields[7] ?? '']),
  );

describe('npm start', () => {
  it('created the first admin from ADMIN_EMAIL and ADMIN_PASSWORD', () => {
    expect(output).toContain(
      `created the admin ${ADMIN.email} with the password from ADMIN_PASSWORD`,
    );
    expect(output).not.toContain(ADMIN.password);
  });

  it.runIf(!process.env.DATABASE_URL)(
    'keeps a generated encryption key and session secret, readable by their owner only, in the data directory',
    () => {
      const key = statSync(join(dataDir, 'encryption.key'));
      expect(key.mode & 0o777).toBe(0o600);
      // The dashboard's session secret likewise.
      expect(statSync(join(dataDir, 'auth.secret')).mode & 0o777).toBe(0o600);
    },
  );

  it('serves the users API to a key printed by the CLI', async () => {
    const key = await cliApiKey(ADMIN.email, 'e2e', 'read,write');
    expect(key).toMatch(/^csk_live_/);
    const res = await fetch(`${base}/api/users`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('api-version')).toBe('1');
    const body = await res.json();
    expect(body.data).toContainEqual(
      expect.objectContaining({ email: ADMIN.email, role: 'admin' }),
    );
    expect(body.pagination).toMatchObject({ page: 1, limit: 50 });
  });

  it('answers 401 in the envelope without credentials', async () => {
    const res = await fetch(`${base}/api/users`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('unauthorized');
  });

  it('serves the OpenAPI document and readable docs from the app itself', async () => {
    const doc = await fetch(`${base}/api/openapi.json`).then((r) => r.json());
    expect(doc.openapi).toBe('3.1.0');
    const page = await fetch(`${base}/docs`).then((r) => r.text());
    expect(page).toContain('<a href="/api/openapi.json">');
    // Nothing loaded from elsewhere, and nothing to run.
    expect(page).not.toMatch(/(src|href)="https?:/);
    expect(page).not.toContain('<script');
  });

  it('sends security headers: a nonce CSP on pages, no framing, nosniff, the docs page too', async () => {
    const policies: string[] = [];
    for (const path of ['/', '/sign-in', '/dashboard/api-keys']) {
      const res = await fetch(`${base}${path}`, { redirect: 'manual' });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBeTruthy();
      policies.push(csp);
    }
    // A fresh nonce on every answer.
    expect(new Set(policies).size).toBe(policies.length);
    const docs = await fetch(`${base}/docs`);
    expect(docs.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const api = await fetch(`${base}/api/health`);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses to start on DATABASE_URL without CHORUS_PUBLIC_URL, naming it', () => {
    const refused = spawnSync('npm', ['start'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        CHORUS_ENCRYPTION_KEY: 'a'.repeat(64),
        NEXTAUTH_SECRET: 'x'.repeat(44),
        CHORUS_PUBLIC_URL: '',
      },
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('CHORUS_PUBLIC_URL is not set');
  });

  it("serves Next on a Unix socket only the app's user can enter, on no TCP port of its own", async () => {
    const web = processRunning('scripts/serve-web.ts', startPid);
    expect(web).toBeDefined();
    const sockets = proc.sockets(web ?? 0);
    const tcp = tcpListeners();
    // A TCP port would let any local process reach Next with an X-Forwarded-For of its choosing.
    expect(sockets.filter((inode) => tcp.has(inode))).toEqual([]);
    const unix = unixListeners();
    const paths = sockets.flatMap((inode) => unix.get(inode) ?? []);
    expect(paths).toHaveLength(1);
    expect(statSync(dirname(paths[0] ?? '')).mode & 0o777).toBe(0o700);
    // And the pages are served, through the app's port.
    expect((await fetch(`${base}/sign-in`)).status).toBe(200);
  });

  it('runs its supervisor under npm itself, with no signal-relaying wrapper above it', () => {
    const server = processRunning('src/serve.ts', startPid);
    expect(server).toBeDefined();
    const above: string[] = [];
    for (let at = proc.parent(server ?? 0); at > 1 && at !== startPid; at = proc.parent(at))
      above.push(proc.commandLine(at).replaceAll('\0', ' '));
    // tsx's CLI relays a stop signal to the script's process and kills it (SIGKILL) unless it
    // acknowledges within 60 ms, which a supervisor busy with the embedded database or the
    // worker may not: its graceful stop (jobs, PGlite) would never run.
    expect(above.filter((command) => /tsx\/dist\/cli|\.bin\/tsx/.test(command))).toEqual([]);
    expect(above[0]).toContain('--import tsx src/start.ts');
  });

  // Its withdrawal when the server stops is checked by ./server.ts after stopping it.
  it('announces the embedded database to the CLI while running', () => {
    expect(existsSync(join(dataDir, 'embedded-server.json'))).toBe(!process.env.DATABASE_URL);
  });
});
