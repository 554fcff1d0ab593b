/**
 * An internal app on `@chorus/client`: `CHORUS_URL=http://localhost:3000 CHORUS_TOKEN=csk_…
 * npm start -w @chorus/example-internal-app`. The key needs `read`, `content:read` and
 * `content:write`.
 */
import { ChorusApiError, createChorusClient } from '@chorus/client';

const url = process.env.CHORUS_URL ?? 'http://localhost:3000';
const token = process.env.CHORUS_TOKEN;
if (!token) {
  console.error('Set CHORUS_TOKEN to an API key (npm run -s cli -- api-key create …).');
  process.exit(1);
}

const chorus = createChorusClient({ url, token });

// Typed end to end: `users` is UserSummary[], `pagination` the spec's numbers.
const { data: users, pagination } = await chorus.users.list.query({ limit: 5 });
console.log(`users: ${pagination.total}`);
for (const user of users) console.log(`- ${user.name} <${user.email}> (${user.role})`);

const { data: post } = await chorus.posts.create.mutate({
  title: `Weekly digest ${new Date().toISOString().slice(0, 10)}`,
  content: 'Made by the internal app.',
  tags: ['digest'],
});
console.log(`created post ${post.id} (${post.status})`);

// The compiler refuses what the API would: a title must be a string (`npm run typecheck`
// fails if this call ever compiles).
export const refusedByTheCompiler = () =>
  // @ts-expect-error -- title: number is not assignable to string
  chorus.posts.create.mutate({ title: 42 });

// Refusals arrive as ChorusApiError, in the spec's terms.
try {
  await chorus.posts.get.query({ id: 'post_missing' });
} catch (error) {
  if (!(error instanceof ChorusApiError)) throw error;
  console.log(`refused: ${error.status} ${error.code}`);
}
