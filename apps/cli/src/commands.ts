import { parseArgs } from 'node:util';
import type { Db } from '@chorus/db';
import {
  createAccount,
  createApiKey,
  findUserByEmail,
  listApiKeys,
  revokeApiKey,
} from '@chorus/services';
import { escapeControls, ZAccountName, ZCreateApiKey, ZCreateUser } from '@chorus/validators';
import {
  checked,
  oneOf,
  parseEmail,
  parseExpiresIn,
  parseScopes,
  refuseControls,
  required,
  UsageError,
} from './args';

export const USAGE = `Usage: npm run -s cli -- <command> [options]

  account create --name NAME --admin-email EMAIL --admin-password PASSWORD
                 [--admin-name NAME] [--tier free|pro|enterprise]
  api-key create --email EMAIL --name NAME --scopes read,write,...
                 [--env live|test] [--expires-in 30d]
  api-key list   --email EMAIL
  api-key revoke --id KEY_ID

Every command takes --json (one JSON document on stdout). --version prints the version.

Scopes: read, write, content:read, content:write, analytics:read, analytics:write.
The command uses the same database as the server (DATABASE_URL, or the embedded one).`;

export interface Io {
  /** What a script may capture: the key, a table, or JSON with --json. */
  out(line: string): void;
  /** What a person reads. */
  info(line: string): void;
}

type Flags = Record<string, string | boolean | undefined>;

/** A command whose arguments are checked: what is left is to run it on the database. */
export type ParsedCommand = (db: Db, io: Io) => Promise<void>;

interface Command {
  /** The command's string options; every command also takes `--json`. */
  options: string[];
  /** Checks the flags (throwing UsageError) and returns what runs on the database. */
  parse(flags: Flags): ParsedCommand;
}

function flagsOf(args: string[], names: string[]): Flags {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: {
        ...Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
        json: { type: 'boolean' as const },
      },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length > 0)
      throw new UsageError(`Unexpected argument "${escapeControls(positionals[0] ?? '')}".`);
    refuseControls(values);
    return values as Flags;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

const text = (f: Flags, name: string) => {
  const value = f[name];
  return typeof value === 'string' ? value : undefined;
};
const requiredText = (f: Flags, name: string) => required(text(f, name), name);

/** One JSON document on stdout for --json, else the lines for people and scripts. */
const json = (io: Io, value: unknown) => io.out(JSON.stringify(value, null, 2));

const accountCreate: Command = {
  options: ['name', 'admin-email', 'admin-password', 'admin-name', 'tier'],
  parse(f) {
    const adminName = text(f, 'admin-name');
    const input = {
      name: checked(ZAccountName, requiredText(f, 'name'), '--name'),
      tier: oneOf(text(f, 'tier') ?? 'free', ['free', 'pro', 'enterprise'] as const, '--tier'),
      admin: {
        email: parseEmail(requiredText(f, 'admin-email'), '--admin-email'),
        password: checked(
          ZCreateUser.shape.password,
          requiredText(f, 'admin-password'),
          '--admin-password',
        ),
        name:
          adminName === undefined
            ? undefined
            : checked(ZCreateUser.shape.name, adminName, '--admin-name'),
      },
    };
    return async (db, io) => {
      const { accountId, adminId } = await createAccount(db, input);
      if (f.json) return json(io, { accountId, adminId, adminEmail: input.admin.email });
      io.info(`Created account ${accountId} with the admin ${input.admin.email} (${adminId}).`);
      io.out(accountId);
    };
  },
};

const apiKeyCreate: Command = {
  options: ['email', 'name', 'scopes', 'env', 'expires-in'],
  parse(f) {
    const email = parseEmail(requiredText(f, 'email'), '--email');
    const expiresIn = text(f, 'expires-in');
    const request = {
      name: checked(ZCreateApiKey.shape.name, requiredText(f, 'name'), '--name'),
      scopes: parseScopes(requiredText(f, 'scopes')),
      environment: oneOf(text(f, 'env') ?? 'live', ['live', 'test'] as const, '--env'),
      expiresAt: expiresIn ? parseExpiresIn(expiresIn) : undefined,
    };
    return async (db, io) => {
      const { apiKey, secret } = await createApiKey({
        db,
        userId: (await findUserByEmail(db, email)).id,
        ...request,
      });
      if (f.json) return json(io, { ...apiKey, secret });
      io.info(
        `Created API key ${apiKey.id} "${apiKey.name}" for ${email} with scopes ${apiKey.scopes.join(', ')}${apiKey.expiresAt ? `, expiring ${apiKey.expiresAt}` : ''}.`,
      );
      io.info('The key is shown once; store it now:');
      io.out(secret);
    };
  },
};

const LIST_HEADER = ['ID', 'KEY', 'STATE', 'NAME', 'OWNER', 'SCOPES', 'LAST USED'];

const apiKeyList: Command = {
  options: ['email'],
  parse(f) {
    const email = parseEmail(requiredText(f, 'email'), '--email');
    return async (db, io) => {
      const { accountId } = await findUserByEmail(db, email);
      const keys = await listApiKeys(db, accountId);
      if (f.json) return json(io, keys);
      io.out(LIST_HEADER.join('\t'));
      for (const key of keys) {
        io.out(
          [
            key.id,
            `${key.prefix}…${key.lastFour}`,
            key.state,
            // Escaped: a name stored before the rule may hold a tab (a column of its own) or a
            // line break (a row of its own), and an escape sequence would reach the terminal.
            escapeControls(key.name),
            key.owner.email,
            key.scopes.join(','),
            key.lastUsedAt ?? 'never',
          ].join('\t'),
        );
      }
    };
  },
};

const apiKeyRevoke: Command = {
  options: ['id'],
  parse(f) {
    const id = requiredText(f, 'id');
    return async (db, io) => {
      const key = await revokeApiKey(db, id);
      if (f.json) return json(io, key);
      io.info(`Revoked API key ${key.id} "${key.name}". Requests with it are now refused.`);
    };
  },
};

const COMMANDS: Record<string, Command> = {
  'account create': accountCreate,
  'api-key create': apiKeyCreate,
  'api-key list': apiKeyList,
  'api-key revoke': apiKeyRevoke,
};

/**
 * Checks a whole command line without touching anything (throws UsageError for a bad call),
 * so that a mistake is reported before the database is opened.
 */
export function parseCommand(argv: string[]): ParsedCommand {
  const [group = '', action = '', ...rest] = argv;
  const command = Object.hasOwn(COMMANDS, `${group} ${action}`)
    ? COMMANDS[`${group} ${action}`]
    : undefined;
  if (!command)
    throw new UsageError(
      group ? `Unknown command "${[group, action].join(' ').trim()}".` : 'No command given.',
    );
  return command.parse(flagsOf(rest, command.options));
}

/** Parses, then runs one command; throws UsageError for a bad call and AppError for a refused one. */
export async function runCommand(db: Db, argv: string[], io: Io) {
  await parseCommand(argv)(db, io);
}
