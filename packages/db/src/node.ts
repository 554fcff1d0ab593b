// Process-level tooling (file system, migrations, the embedded server): for the start script,
// the CLI and tests, kept apart from the client so the web bundle never traces them.
export { databaseOptionsFromEnv, loadEnvFile, openConfiguredDatabase } from './config';
export { markEmbedded, pgliteDir, startEmbeddedServer, type EmbeddedServer } from './embedded';
export { readEmbeddedServer } from './embedded-lock';
export { migrateDatabase } from './migrate';
