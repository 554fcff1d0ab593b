import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv, INTEGRATION_PREFIX, parseSettings, readSetting, settingsShape } from '../src';

const repo = join(import.meta.dirname, '..', '..', '..');

describe('parseSettings', () => {
  it('gives the declared defaults for an empty environment, blank counting as unset', () => {
    const settings = parseSettings({ PORT: '', LOG_LEVEL: ' ' });
    expect(settings.PORT).toBe(3000);
    expect(settings.LOG_LEVEL).toBe('info');
    expect(settings.CHORUS_WORKER).toBe(true);
    expect(settings.CHORUS_TRPC_MAX_BATCH).toBe(20);
    expect(settings.DATABASE_POOL_MAX).toBe(10);
  });

  it('names every bad setting', () => {
    const bad = { PORT: '70000', CHORUS_WORKER: 'yes', CHORUS_TRPC_MAX_BATCH: '0' };
    expect(() => parseSettings(bad)).toThrow(
      /PORT must[\s\S]*CHORUS_WORKER must[\s\S]*CHORUS_TRPC_MAX_BATCH must/,
    );
    for (const pool of ['0', '2.5', 'ten', '1001'])
      expect(() => parseSettings({ DATABASE_POOL_MAX: pool })).toThrow(/DATABASE_POOL_MAX must/);
  });

  it('refuses a webhook lease that a delivery attempt (10 s) can outlast, naming the setting', () => {
    for (const lease of ['1', '5', '10']) {
      const env = { CHORUS_WEBHOOK_LEASE_SECONDS: lease };
      const why = /CHORUS_WEBHOOK_LEASE_SECONDS must be an integer from 11 to 3600: .*10 s/;
      expect(() => parseSettings(env), lease).toThrow(why);
      expect(() => readSetting('CHORUS_WEBHOOK_LEASE_SECONDS', env), lease).toThrow(why);
    }
    expect(parseSettings({ CHORUS_WEBHOOK_LEASE_SECONDS: '11' }).CHORUS_WEBHOOK_LEASE_SECONDS).toBe(
      11,
    );
    expect(parseSettings({}).CHORUS_WEBHOOK_LEASE_SECONDS).toBe(30);
  });

  it('reads one setting for the packages that take an env record', () => {
    expect(readSetting('CHORUS_MEDIA_MAX_BYTES', { CHORUS_MEDIA_MAX_BYTES: '1024' })).toBe(1024);
    expect(() => readSetting('DATABASE_URL', { DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must be a postgres/,
    );
  });
});

describe('the declared settings', () => {
  it('are those .env.example lists', () => {
    const example = readFileSync(join(repo, '.env.example'), 'utf8');
    const listed = [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)]
      .map((m) => m[1] ?? '')
      .filter((name) => !name.startsWith(INTEGRATION_PREFIX) || name in settingsShape);
    // AUTH_SECRET is next-auth's other name for NEXTAUTH_SECRET, documented beside it.
    const declared = Object.keys(settingsShape).filter((name) => name !== 'AUTH_SECRET');
    expect(declared.sort()).toEqual([...new Set(listed)].sort());
  });
});

describe('childEnv', () => {
  it('holds the basics, the named settings and NODE_ENV, and nothing else', () => {
    const env = { PATH: '/bin', NEXTAUTH_SECRET: 's', CHORUS_INTEGRATION_X_CLIENT_ID: 'x' };
    const settings = parseSettings(env);
    expect(childEnv({ env, settings, names: ['PORT'], nodeEnv: 'production' })).toEqual({
      PATH: '/bin',
      PORT: '3000',
      NODE_ENV: 'production',
    });
    const web = childEnv({ env, settings, names: [], integrations: true, nodeEnv: 'development' });
    expect(web.CHORUS_INTEGRATION_X_CLIENT_ID).toBe('x');
    expect(web.NEXTAUTH_SECRET).toBeUndefined();
  });
});
