import { startBlueskyPds } from './bluesky-pds';

/**
 * `npm run pds`: Bluesky's reference PDS on http://localhost:2583 (PDS_PORT to change it) with
 * one account and an app password to connect Chorus with; `--appview` adds the reference
 * AppView (post counts for analytics; in-memory PostgreSQL unless DATABASE_URL is set).
 * Everything is in memory and gone at Ctrl-C.
 */
const port = Number(process.env.PDS_PORT ?? 2583);
const appView = process.argv.includes('--appview');
const pds = await startBlueskyPds({ port, appView });
const account = await pds.createAccount(process.env.PDS_HANDLE ?? 'alice.test');

console.log(`Bluesky PDS${appView ? ' with an AppView' : ''} running at ${pds.url}

Connect Bluesky in Chorus with:
  handle        ${account.handle}
  app password  ${account.appPassword}
  server        ${pds.url}

Chorus refuses a loopback server unless told otherwise: start it with
  CHORUS_INTEGRATION_BLUESKY_API_URL=${pds.url} npm start
(then leave the server out when connecting), or with CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS=true.

Ctrl-C stops the PDS (its accounts and posts are in memory only).`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void pds.close().then(() => process.exit(0));
  });
}
