// Compiles: the inputs match the procedures' schemas (checked by test/types.test.ts).
import { createChorusClient } from '@chorus/client';

const chorus = createChorusClient({ url: 'http://localhost:3000', token: 'chorus_x' });
const users = await chorus.users.list.query({ limit: 10, role: 'admin' });
const email: string | undefined = users.data[0]?.email;
await chorus.posts.create.mutate({ title: 'Hello', tags: ['a'] });
export { email };
