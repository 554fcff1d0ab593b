import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { authenticateBearer } from '@chorus/auth';
import type { Database } from '@chorus/db';
import { createTestDatabase } from '@chorus/db/testing';
import { users } from '@chorus/db';
import { AppError, createApiKey, findUserByEmail } from '@chorus/services';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExpiresIn, UsageError } from '../src/args';
import { runCommand } from '../src/commands';
import { failureMessage } from '../src/failure';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** The columns of `api-key list`'s table: ID, KEY, STATE, NAME, OWNER, SCOPES, LAST USED. */
const LIST_COLUMNS = 7;

async function run(...argv: string[]) {
  const out: string[] = [];
  const info: string[] = [];
  await runCommand(database.db, argv, { out: (l) => out.push(l), info: (l) => info.push(l) });
  return { out, info };
}

describe('account create', () => {
  it('creates an account with its admin', async () => {
    const { out, info } = await run(
      'account',
      'create',
      '--name',
      'Acme',
      '--admin-email',
      'ops@acme.test',
      '--admin-password',
      'ops-password',
      '--tier',
      'pro',
    );
    expect(out[0]).toMatch(/^acc_/);
    expect(info[0]).toContain('ops@acme.test');
  });

  it('explains a taken email in a sentence', async () => {
    await expect(
      run(
        'account',
        'create',
        '--name',
        'Again',
        '--admin-email',
        'OPS@acme.test',
        '--admin-password',
        'ops-password',
      ),
    ).rejects.toThrow('A user with the email OPS@acme.test already exists.');
  });
});

describe("account create checks its input by the API's rules", () => {
  const create = (...extra: string[]) =>
    run('account', 'create', '--admin-email', 'rules@acme.test', ...extra);
  const password = ['--admin-password', 'rules-password'];

  it.each([
    [
      'a password over 1024',
      ['--name', 'L', '--admin-password', 'p'.repeat(1025)],
      '--admin-password: Must be at most 1024',
    ],
    [
      'a short password',
      ['--name', 'L', '--admin-password', 'short'],
      '--admin-password: Password must be at least 8',
    ],
    [
      'a 5000-character name',
      ['--name', 'n'.repeat(5000), ...password],
      '--name: Must be at most 200',
    ],
    ['a blank name', ['--name', '   ', ...password], '--name: Must not be empty'],
    [
      'a line feed',
      ['--name', 'L', ...password, '--admin-name', 'evil\nname'],
      '--admin-name: Must be one line',
    ],
    [
      'a tab',
      ['--name', 'L', ...password, '--admin-name', 'evil\tname'],
      '--admin-name: Must be one line',
    ],
    [
      'an ANSI escape',
      ['--name', 'L', ...password, '--admin-name', '\u001b[2Jwiped'],
      '--admin-name: Must not contain control characters.',
    ],
    [
      'a 201-character admin name',
      ['--name', 'L', ...password, '--admin-name', 'a'.repeat(201)],
      '--admin-name: Must be at most 200',
    ],
  ])('refuses %s with a usage error', async (_, argv, message) => {
    const error = await create(...argv).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(message);
  });

  it('takes the longest password sign-in reads, and stores names trimmed', async () => {
    const { out } = await create(
      '--name',
      '  Longest  ',
      '--admin-password',
      'p'.repeat(1024),
      '--admin-name',
      ' Ada ',
    );
    expect(out[0]).toMatch(/^acc_/);
    const [admin] = await database.db
      .select({ name: users.name })
      .from(users)
      .where(eq(users.email, 'rules@acme.test'));
    expect(admin?.name).toBe('Ada');
  });
});

describe('api-key create, list and revoke', () => {
  /** `api-key create` for a key named `name`, everything else valid. */
  const keyNamed = (name: string) => [
    'api-key',
    'create',
    '--email',
    'ops@acme.test',
    '--scopes',
    'read',
    '--name',
    name,
  ];

  it('prints a working key once, then lists and revokes it', async () => {
    const { out } = await run(
      'api-key',
      'create',
      '--email',
      'ops@acme.test',
      '--name',
      'ci',
      '--scopes',
      'read,write',
      '--expires-in',
      '30d',
    );
    const [secret] = out;
    expect(secret).toMatch(/^csk_live_[0-9A-Za-z]{32,}$/);
    const principal = await authenticateBearer(database.db, secret ?? '');
    expect(principal).toMatchObject({ role: 'admin', scopes: ['read', 'write'] });

    const listed = await run('api-key', 'list', '--email', 'ops@acme.test');
    expect(listed.out).toHaveLength(2);
    expect(listed.out[0]).toBe('ID\tKEY\tSTATE\tNAME\tOWNER\tSCOPES\tLAST USED');
    expect(listed.out[1]).toContain('\tops@acme.test\t');
    expect(listed.out[1]).toContain('active');
    expect(listed.out[1]).not.toContain(secret);
    const id = listed.out[1]?.split('\t')[0] ?? '';

    await run('api-key', 'revoke', '--id', id);
    expect(await authenticateBearer(database.db, secret ?? '')).toBeNull();
    expect((await run('api-key', 'list', '--email', 'ops@acme.test')).out[1]).toContain('revoked');
  });

  it('answers one JSON document with --json, the secret only on create', async () => {
    const created = await run(
      'api-key',
      'create',
      '--email',
      'ops@acme.test',
      '--name',
      'json',
      '--scopes',
      'content:read',
      '--json',
    );
    expect(created.info).toEqual([]);
    const key = JSON.parse(created.out.join('\n'));
    expect(key).toMatchObject({ name: 'json', scopes: ['content:read'] });
    expect(key.secret).toMatch(/^csk_live_/);
    const listed = JSON.parse(
      (await run('api-key', 'list', '--email', 'ops@acme.test', '--json')).out.join('\n'),
    );
    const entry = listed.find((k: { id: string }) => k.id === key.id);
    expect(entry).toMatchObject({ name: 'json', state: 'active' });
    expect(JSON.stringify(listed)).not.toContain(key.secret);
  });

  it('makes test keys with --env test', async () => {
    const { out } = await run(
      'api-key',
      'create',
      '--email',
      'ops@acme.test',
      '--name',
      'dev',
      '--scopes',
      'read',
      '--env',
      'test',
    );
    expect(out[0]).toMatch(/^csk_test_/);
  });

  it.each([
    [
      ['api-key', 'create', '--email', 'ops@acme.test', '--name', 'x', '--scopes', 'read,admin'],
      'Unknown scope admin',
    ],
    [['api-key', 'create', '--email', 'ops@acme.test', '--name', 'x'], '--scopes is required.'],
    [
      ['api-key', 'create', '--email', 'nope', '--name', 'x', '--scopes', 'read'],
      '--email must be an email address',
    ],
    [
      [
        'api-key',
        'create',
        '--email',
        'ops@acme.test',
        '--name',
        'x',
        '--scopes',
        'read',
        '--env',
        'prod',
      ],
      '--env must be one of live, test',
    ],
    [
      [
        'api-key',
        'create',
        '--email',
        'ops@acme.test',
        '--name',
        'x',
        '--scopes',
        'read',
        '--expires-in',
        'soon',
      ],
      '--expires-in takes',
    ],
    [keyNamed('a\nb'), '--name: Must be one line'],
    [keyNamed('k'.repeat(101)), '--name: Must be at most 100'],
    [keyNamed('\u001b[31mred'), '--name: Must not contain control characters.'],
    [['api-key', 'create', '--bogus', 'x'], "Unknown option '--bogus'"],
    [['api-key', 'rotate'], 'Unknown command "api-key rotate"'],
  ])('refuses %j with a usage error', async (argv, message) => {
    const error = await run(...argv).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(message);
  });

  it('lists a key whose stored name holds control characters on one escaped row', async () => {
    const { id: userId } = await findUserByEmail(database.db, 'ops@acme.test');
    // As an old row may hold it: written past the rule, by the service itself.
    await createApiKey({
      db: database.db,
      userId,
      name: 'evil\nname\tX\u001b[31m',
      scopes: ['read'],
      environment: 'live',
    });
    const { out } = await run('api-key', 'list', '--email', 'ops@acme.test');
    const row = out.find((line) => line.includes('evil'));
    expect(row?.split('\t')).toHaveLength(LIST_COLUMNS);
    expect(row).toContain('evil\\u000Aname\\u0009X\\u001B[31m');
    // Tab aside, the table's own separator, no line holds a control character.
    // eslint-disable-next-line no-control-regex
    for (const line of out) expect(line).not.toMatch(/[\u0000-\u0008\u000A-\u001F\u007F-\u009F]/);
  });

  it('says who is missing when the email is unknown', async () => {
    await expect(
      run('api-key', 'create', '--email', 'ghost@acme.test', '--name', 'x', '--scopes', 'read'),
    ).rejects.toThrow('No user has the email ghost@acme.test.');
  });
});

describe('parseExpiresIn', () => {
  it('reads minutes, hours, days and weeks', () => {
    const now = new Date('2026-11-21T00:00:00.000Z');
    expect(parseExpiresIn('90m', now).toISOString()).toBe('2026-11-21T01:30:00.000Z');
    expect(parseExpiresIn('30d', now).toISOString()).toBe('2026-12-21T00:00:00.000Z');
    expect(parseExpiresIn('2w', now).toISOString()).toBe('2026-12-05T00:00:00.000Z');
    expect(() => parseExpiresIn('0d', now)).toThrow(UsageError);
  });

  it('refuses a time past the year 9999 in a sentence, where the API would refuse the date', () => {
    const now = new Date('2026-11-21T00:00:00.000Z');
    expect(parseExpiresIn('400000w', now).getUTCFullYear()).toBeLessThanOrEqual(9999);
    for (const value of ['3000000d', '420000w', '99999999d', '9'.repeat(400) + 'm']) {
      expect(() => parseExpiresIn(value, now)).toThrow(/reaches past the year 9999/);
    }
  });
});

describe('failureMessage', () => {
  it('prints a refusal as it is, and nothing of any other failure but a system code', () => {
    const hash = 'c0ffee'.repeat(10);
    const sql = new Error(
      `Failed query: insert into "api_keys" ("id", "token_hash") values ($1, $2)\nparams: key_1,${hash}`,
    );
    const printed = failureMessage(sql);
    expect(printed).not.toMatch(/insert|api_keys|params/);
    expect(printed).not.toContain(hash);
    expect(printed).toMatch(/^Unexpected failure/);
    expect(failureMessage(new AppError('resource_not_found', 'Active API key not found.'))).toBe(
      'Active API key not found.',
    );
    const refused = Object.assign(new Error(`connect ECONNREFUSED ${hash}`), {
      code: 'ECONNREFUSED',
    });
    expect(failureMessage(refused)).toContain('(ECONNREFUSED)');
    expect(failureMessage(refused)).not.toContain(hash);
  });

  it("names the code of the driver's error under the query's, never the query", () => {
    const secret = 'hunter2-secret';
    // As Drizzle throws: the query and its parameters, the driver's error as the cause.
    const wrapped = (cause: unknown) =>
      Object.assign(new Error(`Failed query: select 1\nparams: ${secret}`), {
        query: 'select 1',
        params: [secret],
        cause,
      });
    const refused = wrapped(
      Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:5999`), { code: 'ECONNREFUSED' }),
    );
    expect(failureMessage(refused)).toMatch(/^Unexpected failure \(ECONNREFUSED\);/);
    for (const code of ['28P01', '28000']) {
      const denied = wrapped(
        Object.assign(new Error(`password authentication failed for user "${secret}"`), { code }),
      );
      const printed = failureMessage(denied);
      expect(printed).toContain(`(authentication failed, SQLSTATE ${code})`);
      expect(printed).not.toMatch(/hunter2|select|params/);
    }
    const twoAddresses = wrapped(
      Object.assign(new AggregateError([Object.assign(new Error(), { code: 'ETIMEDOUT' })]), {}),
    );
    expect(failureMessage(twoAddresses)).toContain('(ETIMEDOUT)');
  });
});

describe('the installed command', () => {
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  let parent: string;
  let dataDir: string;
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'chorus-cli-'));
    // Not there yet, as on a fresh machine before any `npm start`: the first command makes it.
    dataDir = join(parent, 'data');
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', main, ...args], {
      // An embedded database of its own, so this test never touches a real server.
      env: { ...process.env, DATABASE_URL: '', CHORUS_DATA_DIR: dataDir },
    });

  it('bootstraps an account and prints a key on stdout alone', async () => {
    await cli(
      'account',
      'create',
      '--name',
      'Cli',
      '--admin-email',
      'cli@example.test',
      '--admin-password',
      'cli-password',
    );
    const { stdout, stderr } = await cli(
      'api-key',
      'create',
      '--email',
      'cli@example.test',
      '--name',
      'ci',
      '--scopes',
      'read',
    );
    expect(stdout.trim()).toMatch(/^csk_live_[0-9A-Za-z]{32,}$/);
    expect(stderr).toContain('shown once');
  });

  it('checks its arguments before opening a database, and prints its version', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'chorus-cli-fresh-'));
    const bogus = await promisify(execFile)(process.execPath, ['--import', 'tsx', main, 'bogus'], {
      env: { ...process.env, DATABASE_URL: '', CHORUS_DATA_DIR: fresh },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(bogus).toMatchObject({ code: 2 });
    expect((bogus as { stderr: string }).stderr).toContain('Unknown command "bogus"');
    // Nothing was created: the embedded database was never opened.
    expect(await readdir(fresh)).toEqual([]);
    await rm(fresh, { recursive: true, force: true });
    const { stdout } = await cli('--version');
    expect(stdout.trim()).toMatch(/^chorus \d+\.\d+\.\d+/);
  });

  it('exits 2 with the usage on a bad call, and 1 with a sentence on a refused one', async () => {
    const usage = await cli('api-key', 'create').catch((e: { code: number; stderr: string }) => e);
    expect(usage).toMatchObject({ code: 2 });
    expect((usage as { stderr: string }).stderr).toContain('Usage: npm run -s cli');
    const refused = await cli('api-key', 'revoke', '--id', 'key_missing').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(refused).toMatchObject({ code: 1, stderr: 'Error: Active API key not found.\n' });
  });

  it('refuses a password sign-in would not read with exit 2, before the database', async () => {
    const long = await cli(
      'account',
      'create',
      '--name',
      'L',
      '--admin-email',
      'longpw@acme.test',
      '--admin-password',
      'p'.repeat(1025),
    ).catch((e: { code: number; stderr: string }) => e);
    expect(long).toMatchObject({ code: 2 });
    expect((long as { stderr: string }).stderr).toContain('--admin-password: Must be at most 1024');
  });

  it('names ECONNREFUSED when the database refuses the connection', async () => {
    const refused = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', main, 'api-key', 'list', '--email', 'cli@example.test'],
      // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
      { env: { ...process.env, DATABASE_URL: 'postgres://postgres:pw-secret@127.0.0.1:1/x' } },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 1 });
    const { stderr } = refused as { stderr: string };
    expect(stderr).toContain('(ECONNREFUSED)');
    expect(stderr).not.toMatch(/pw-secret|select|insert/i);
  });

  it('refuses an expiry past the year 9999 before it reaches the database', async () => {
    const args = ['--email', 'cli@example.test', '--name', 'far', '--scopes', 'read'];
    const far = await cli('api-key', 'create', ...args, '--expires-in', '3000000d').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(far).toMatchObject({ code: 2 });
    const { stderr } = far as { stderr: string };
    expect(stderr).toContain('reaches past the year 9999');
    expect(stderr).not.toMatch(/Failed query|insert into|Invalid time value/);
  });
});
