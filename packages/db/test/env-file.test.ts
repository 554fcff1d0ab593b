import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadEnvFile } from '../src/config';

const repo = join(import.meta.dirname, '..', '..', '..');

/** A workspace root with a nested package, like the repository. */
function workspace(dotEnv?: string) {
  const root = mkdtempSync(join(tmpdir(), 'chorus-env-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ workspaces: ['apps/*'] }));
  mkdirSync(join(root, 'apps', 'web'), { recursive: true });
  if (dotEnv !== undefined) writeFileSync(join(root, '.env'), dotEnv);
  return join(root, 'apps', 'web');
}

describe('loadEnvFile', () => {
  it('reads .env at the workspace root from a package below it; the environment wins', () => {
    const env: Record<string, string | undefined> = { PORT: '4000' };
    const set = loadEnvFile(workspace('PORT=5000\nLOG_LEVEL=debug\n# A comment\n'), env);
    expect(env).toEqual({ PORT: '4000', LOG_LEVEL: 'debug' });
    expect(set).toEqual(['LOG_LEVEL']);
  });

  it('changes nothing without a .env', () => {
    const env: Record<string, string | undefined> = { PORT: '4000' };
    expect(loadEnvFile(workspace(), env)).toEqual([]);
    expect(env).toEqual({ PORT: '4000' });
  });
});

describe('.env.example', () => {
  const example = readFileSync(join(repo, '.env.example'), 'utf8');
  // Every line uncommented, as a user enabling them all would have it.
  const enabled = parseEnv(example.replace(/^# ([A-Z][A-Z0-9_]*=)/gm, '$1'));

  it('parses, each setting once', () => {
    const names = [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(enabled).sort()).toEqual([...names].sort());
  });

  it('lists every setting the configuration docs name', () => {
    const documented = ['docs/configuration.md', 'docs/publishing.md'].flatMap((file) =>
      [
        ...readFileSync(join(repo, file), 'utf8').matchAll(
          /`((?:CHORUS|RATE|UPSTASH|NEXTAUTH)_[A-Z0-9_]+|PORT|DATABASE_URL|REDIS_URL|LOG_LEVEL|ADMIN_[A-Z]+)`/g,
        ),
      ].map((m) => m[1] ?? ''),
    );
    expect(documented.length).toBeGreaterThan(30);
    const missing = [...new Set(documented)].filter(
      (name) => !(name in enabled) && !name.endsWith('_'),
    );
    expect(missing).toEqual([]);
  });
});
