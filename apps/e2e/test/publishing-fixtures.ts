import { randomBytes } from 'node:crypto';
import { startMastodonStandIn, type MastodonStandIn } from '@chorus/stand-ins';
import { expect } from 'vitest';
import { callApi } from './api';
import { suiteDatabase } from './database';

/**
 * A Mastodon stand-in on loopback connected to the suite's account as a user connects it (the
 * server may reach loopback in the suite: CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS), and its channel.
 * Each is an instance of its own domain: the files share the account, and each file's first
 * Mastodon account has the same id, which on one domain would be one channel across the files.
 */
export async function connectMastodon(key: string) {
  const standIn: MastodonStandIn = await startMastodonStandIn({
    domain: `${randomBytes(4).toString('hex')}.mastodon.test`,
  });
  const connected = await callApi(key, 'POST', '/api/integrations/connect/mastodon', {
    apiKey: standIn.token,
    serviceUrl: standIn.url,
  });
  expect(connected.status).toBe(201);
  const listed = await callApi(key, 'GET', '/api/content/channels?integrationId=mastodon');
  const channel = (listed.json.data as { id: string; name: string }[])[0];
  if (!channel) throw new Error('connecting Mastodon listed no channel');
  return { standIn, channel };
}

/**
 * Leaves a post's first target `unconfirmed` and the post `failed`, as the engine leaves them
 * when a network without idempotency keys never answered (the suite's networks all have keys).
 */
export async function makeUnconfirmed(postId: string) {
  const sql = await suiteDatabase();
  try {
    const error = {
      code: 'unconfirmed',
      message: 'The network may have published this post: the connection closed.',
      retryable: true,
    };
    await sql`update post_targets set status = 'unconfirmed', attempts = 1, error = ${sql.json(error)} where post_id = ${postId}`;
    await sql`update posts set status = 'failed' where id = ${postId}`;
  } finally {
    await sql.end();
  }
}

/**
 * Disconnects a network the test connected: files share the account, and another one may
 * expect nothing connected.
 */
export async function disconnect(key: string, network: 'mastodon' | 'bluesky') {
  const answer = await callApi(key, 'DELETE', `/api/integrations/disconnect/${network}`);
  expect([200, 204, 404]).toContain(answer.status);
}
