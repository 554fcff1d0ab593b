import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seal, unseal } from '../src/integrations/encryption';
import { pick, safeErrorCode } from '../src/integrations/oauth-client';
import { findEntry, type OAuthEntry } from '../src/integrations/catalogue';
import {
  appOrigin,
  integrationConfigReport,
  providerSettings,
  readEncryptionKey,
} from '../src/integrations/settings';

describe('readEncryptionKey', () => {
  const key = randomBytes(32);

  it('reads 32 bytes as hex, base64 or base64url', () => {
    for (const value of [key.toString('hex'), key.toString('base64'), key.toString('base64url')]) {
      expect(readEncryptionKey({ CHORUS_ENCRYPTION_KEY: value })).toEqual({
        key,
        development: false,
      });
    }
  });

  it('refuses anything that is not 32 bytes, in any environment', () => {
    for (const value of [
      'secret',
      randomBytes(16).toString('hex'),
      randomBytes(33).toString('base64'),
    ]) {
      expect(() => readEncryptionKey({ CHORUS_ENCRYPTION_KEY: value })).toThrow(/32 bytes/);
    }
  });

  it('falls back to the development key outside production only', () => {
    expect(readEncryptionKey({ NODE_ENV: 'test' }).development).toBe(true);
    expect(() => readEncryptionKey({ NODE_ENV: 'production' })).toThrow(/not set/);
  });
});

describe('seal / unseal', () => {
  const key = randomBytes(32);

  it('round-trips, with a fresh IV each time', () => {
    const a = seal('token-value', 'ctx', key);
    expect(a).not.toContain('token-value');
    expect(seal('token-value', 'ctx', key)).not.toBe(a);
    expect(unseal(a, 'ctx', key)).toBe('token-value');
  });

  it('refuses another context, another key, or a tampered value', () => {
    const sealed = seal('token-value', 'acc_1:facebook', key);
    expect(() => unseal(sealed, 'acc_2:facebook', key)).toThrow();
    expect(() => unseal(sealed, 'acc_1:facebook', randomBytes(32))).toThrow();
    const last = sealed.at(-1) === 'A' ? 'B' : 'A';
    expect(() => unseal(sealed.slice(0, -1) + last, 'acc_1:facebook', key)).toThrow();
  });
});

describe('pick', () => {
  const doc = {
    name: 'Acme',
    accounts: { data: [{ name: 'News' }, { id: 2 }, { name: 'Deals' }] },
  };

  it('follows keys and spreads arrays', () => {
    expect(pick(doc, 'name')).toEqual(['Acme']);
    expect(pick(doc, 'accounts.data[].name')).toEqual(['News', 'Deals']);
    expect(pick(doc, 'missing.path')).toEqual([]);
    expect(pick(doc, 'name[]')).toEqual([]);
  });
});

describe('safeErrorCode', () => {
  it('passes RFC 6749 style codes only', () => {
    expect(safeErrorCode('access_denied', 'x')).toBe('access_denied');
    expect(safeErrorCode('<script>', 'provider_error')).toBe('provider_error');
    expect(safeErrorCode(undefined, 'token_exchange_failed')).toBe('token_exchange_failed');
  });
});

describe('appOrigin', () => {
  it('prefers CHORUS_PUBLIC_URL, as an origin', () => {
    expect(appOrigin('http://internal:3000', {})).toBe('http://internal:3000');
    expect(
      appOrigin('http://internal:3000', { CHORUS_PUBLIC_URL: 'https://chorus.example.com/app/' }),
    ).toBe('https://chorus.example.com');
  });
});

describe('providerSettings refreshUrl', () => {
  const oauth = (id: string) => findEntry(id) as OAuthEntry;

  it("is the catalogue's refresh endpoint (Figma's), else the token URL, and the environment's first", () => {
    expect(providerSettings(oauth('figma'), {}).refreshUrl).toBe(
      'https://api.figma.com/v1/oauth/refresh',
    );
    const own = { CHORUS_INTEGRATION_FIGMA_REFRESH_URL: 'http://127.0.0.1:1/refresh' };
    expect(providerSettings(oauth('figma'), own).refreshUrl).toBe('http://127.0.0.1:1/refresh');
    const dropbox = { CHORUS_INTEGRATION_DROPBOX_TOKEN_URL: 'http://127.0.0.1:1/token' };
    expect(providerSettings(oauth('dropbox'), dropbox).refreshUrl).toBe('http://127.0.0.1:1/token');
    expect(
      integrationConfigReport({ CHORUS_INTEGRATION_FIGMA_REFRESH_URL: 'nope' }).errors,
    ).toContain('CHORUS_INTEGRATION_FIGMA_REFRESH_URL must be an absolute http(s) URL.');
  });
});
