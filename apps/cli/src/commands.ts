import { parseArgs } from 'node:util';
import type { Db } from '@chorus/db';
import {
  createAccount,
  createApiKey,
  findUserByEmail,
  listApiKeys,
  revokeApiKey,
} from '@chorus/services';
import { oneOf, parseEmail, parseExpiresIn, parseScopes, required, UsageError } from './args';

export const USAGE = `Usage: npm run -s cli -- <command> [options]

  account create --name NAME --admin-email EMAIL --admin-password PASSWORD
                 [--admin-name NAME] [--tier free|pro|enterprise]
  api-key create --email EMAIL --name NAME --scopes read,write,...
                 [--env live|test] [--expires-in 30d]
  api-key list   --email EMAIL
  api-key revoke --id KEY_ID

Scopes: read, write, content:read, content:write, analytics:read, analytics:write.
The command uses the same database as the server (DATABASE_URL, or the embedded one).`;

export interface Io {
  /** What a script may capture: the key, or a table. */
  out(line: string): void;
  /** What a person reads. */
  info(line: string): void;
}

type Flags = Record<string, string | undefined>;

function flags(args: string[], names: string[]): Flags {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
    return values as Flags;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

async function accountCreate(db: Db, args: string[], io: Io) {
  const f = flags(args, ['name', 'admin-email', 'admin-password', 'admin-name', 'tier']);
  const password = required(f, 'admin-password');
  if (password.length < 8) throw new UsageError('--admin-password must be at least 8 characters.');
  const { accountId, adminId } = await createAccount(db, {
    name: required(f, 'name'),
    tier: oneOf(f.tier ?? 'free', ['free', 'pro', 'enterprise'] as const, '--tier'),
    admin: {
      email: parseEmail(required(f, 'admin-email'), '--admin-email'),
      password,
      name: f['admin-name'],
    },
  });
  io.info(`Created account ${accountId} with the admin ${f['admin-email']} (${adminId}).`);
  io.out(accountId);
}

async function apiKeyCreate(db: Db, args: string[], io: Io) {
  const f = flags(args, ['email', 'name', 'scopes', 'env', 'expires-in']);
  const email = parseEmail(required(f, 'email'), '--email');
  const request = {
    name: required(f, 'name'),
    scopes: parseScopes(required(f, 'scopes')),
    environment: oneOf(f.env ?? 'live', ['live', 'test'] as const, '--env'),
    expiresAt: f['expires-in'] ? parseExpiresIn(f['expires-in']) : undefined,
  };
  const { apiKey, secret } = await createApiKey({
    db,
    userId: (await findUserByEmail(db, email)).id,
    ...request,
  });
  io.info(
    `Created API key ${apiKey.id} "${apiKey.name}" for ${email} with scopes ${apiKey.scopes.join(', ')}${apiKey.expiresAt ? `, expiring ${apiKey.expiresAt}` : ''}.`,
  );
  io.info('The key is shown once; store it now:');
  io.out(secret);
}

async function apiKeyList(db: Db, args: string[], io: Io) {
  const f = flags(args, ['email']);
  const email = parseEmail(required(f, 'email'), '--email');
  const { accountId } = await findUserByEmail(db, email);
  const now = new Date().toISOString();
  for (const key of await listApiKeys(db, accountId)) {
    const state = key.revokedAt
      ? 'revoked'
      : key.expiresAt && key.expiresAt < now
        ? 'expired'
        : 'active';
    io.out(
      `${key.id}\t${key.prefix}…${key.lastFour}\t${state}\t${key.name}\t${key.scopes.join(',')}\tlast used ${key.lastUsedAt ?? 'never'}`,
    );
  }
}

async function apiKeyRevoke(db: Db, args: string[], io: Io) {
  const f = flags(args, ['id']);
  const key = await revokeApiKey(db, required(f, 'id'));
  io.info(`Revoked API key ${key.id} "${key.name}". Requests with it are now refused.`);
}

const COMMANDS: Record<string, (db: Db, args: string[], io: Io) => Promise<void>> = {
  'account create': accountCreate,
  'api-key create': apiKeyCreate,
  'api-key list': apiKeyList,
  'api-key revoke': apiKeyRevoke,
};

/** Runs one command; throws UsageError for a bad call and AppError for a refused one. */
export async function runCommand(db: Db, argv: string[], io: Io) {
  const [group = '', action = '', ...rest] = argv;
  const command = COMMANDS[`${group} ${action}`];
  if (!command)
    throw new UsageError(
      group ? `Unknown command "${[group, action].join(' ').trim()}".` : 'No command given.',
    );
  await command(db, rest, io);
}
