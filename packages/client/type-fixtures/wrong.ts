// Must NOT compile: `role` takes a role, not any string (checked by test/types.test.ts).
import { createChorusClient } from '@chorus/client';

const chorus = createChorusClient({ url: 'http://localhost:3000', token: 'chorus_x' });
await chorus.users.list.query({ role: 'superuser' });
