import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@chorus/db/testing';
import { verifyDashboardLogin } from '@chorus/services';
import { describe, expect, it } from 'vitest';
import { createFirstAdmin } from '../src/first-admin';

describe('the first admin', () => {
  it('gets a generated password in a file only its owner reads, named but never printed', async () => {
    const database = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'chorus-first-'));
    try {
      const file = join(dataDir, 'initial-admin-password');
      // A stale, world-readable file from before is replaced, not reused.
      await writeFile(file, 'stale', { mode: 0o644 });
      const env = { ADMIN_EMAIL: 'first@example.test' };
      const said = (await createFirstAdmin({ db: database.db, dataDir, env })).join('\n');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const password = (await readFile(file, 'utf8')).trim();
      expect(password.length).toBeGreaterThanOrEqual(20);
      expect(said).toContain(file);
      expect(said).not.toContain(password);
      await expect(
        verifyDashboardLogin({ db: database.db, email: 'first@example.test', password }),
      ).resolves.toMatchObject({ role: 'admin' });
      // Once only: a second start creates nothing and writes nothing.
      await rm(file);
      expect(await createFirstAdmin({ db: database.db, dataDir, env })).toEqual([]);
      await expect(stat(file)).rejects.toThrow();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await database.close();
    }
  });
});
