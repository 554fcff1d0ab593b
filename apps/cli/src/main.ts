#!/usr/bin/env -S npx tsx
/** The operator's command line: bootstrap accounts and API keys against the server's database. */
import { loadEnvFile, migrateDatabase, openConfiguredDatabase } from '@chorus/db/node';
import { createRequire } from 'node:module';
import { UsageError } from './args';
import { parseCommand, USAGE } from './commands';
import { failureMessage } from './failure';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  if (argv.includes('--version')) {
    process.stdout.write(`chorus ${version}\n`);
    return 0;
  }
  // Every argument is checked before anything is opened: a typo costs no database.
  const command = parseCommand(argv);
  loadEnvFile();
  const database = await openConfiguredDatabase();
  try {
    // Idempotent: a first command on a fresh embedded database creates the schema.
    await migrateDatabase(database);
    await command(database.db, {
      out: (line) => process.stdout.write(`${line}\n`),
      info: (line) => process.stderr.write(`${line}\n`),
    });
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`Error: ${error.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`Error: ${failureMessage(error)}\n`);
    process.exit(1);
  },
);
