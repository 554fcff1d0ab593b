/**
 * An internal app: `CHORUS_URL=http://localhost:3000 CHORUS_TOKEN=csk_live_… npm start`
 * (a key with the `read`, `content:read` and `content:write` scopes, of an admin to list users).
 * Prints one JSON line per step, so scripts (and the e2e test) can read what happened.
 */
import { ChorusApiError, createChorusClient } from '@chorus/client';

const url = process.env.CHORUS_URL;
const token = process.env.CHORUS_TOKEN;
if (!url || !token) {
  console.error('Set CHORUS_URL and CHORUS_TOKEN.');
  process.exit(2);
}

const chorus = createChorusClient({ url, token });

// Inputs and outputs are typed from the server's procedures: `role` only takes a real role,
// and `users.data[0].email` is a string, with no cast.
const users = await chorus.users.list.query({ limit: 10, role: 'admin' });
console.log(
  JSON.stringify({
    step: 'users',
    total: users.pagination.total,
    emails: users.data.map((user) => user.email),
  }),
);

const { data: post } = await chorus.posts.create.mutate({
  title: 'Written by the internal app',
  content: 'Posted through @chorus/client.',
  tags: ['internal'],
});
console.log(JSON.stringify({ step: 'post', id: post.id, status: post.status }));

// A failure carries the spec's code, status and details.
try {
  await chorus.posts.get.query({ id: 'post_00000000000000000000000000' });
} catch (error) {
  if (!(error instanceof ChorusApiError)) throw error;
  console.log(JSON.stringify({ step: 'missing', code: error.code, status: error.status }));
}
