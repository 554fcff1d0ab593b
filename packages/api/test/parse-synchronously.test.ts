/**
 * The shared schemas parse synchronously when tRPC asks for `parseAsync` (zod's compiled
 * object parser runs only then), with the same outcomes; an asynchronous one fails loudly.
 */
import { ZUserSummary } from '@chorus/validators';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseSynchronously } from '../src/trpc/init';

const user = {
  id: 'usr_1',
  name: 'Ada',
  email: 'ada@example.com',
  role: 'admin',
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('parseSynchronously', () => {
  it('gives the shared schemas the same answers as before: values stripped, errors as ZodError', async () => {
    await expect(ZUserSummary.parseAsync({ ...user, passwordHash: 'x' })).resolves.toEqual(user);
    await expect(ZUserSummary.parseAsync({ ...user, role: 'owner' })).rejects.toBeInstanceOf(
      z.ZodError,
    );
  });

  it('refuses an asynchronous schema at its first parse, rather than running it twice', async () => {
    const schema = z.string().refine(async (value) => value.length > 2);
    parseSynchronously(schema);
    await expect(schema.parseAsync('long')).rejects.toBeInstanceOf(z.core.$ZodAsyncError);
  });
});
