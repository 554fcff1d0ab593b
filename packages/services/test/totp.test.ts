import { base32Decode, base32Encode, totpCode, verifyTotp } from '@chorus/auth';
import { describe, expect, it } from 'vitest';

// RFC 6238 Appendix B, SHA-1: the secret is ASCII "12345678901234567890", 8 digits there;
// a 6-digit code is the last 6 of those.
const SECRET = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vectors', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
    ];
    for (const [seconds, code] of vectors) {
      expect(totpCode(SECRET, Math.floor(seconds / 30))).toBe(code.slice(-6));
    }
  });

  it('allows one step of drift and refuses steps already used', () => {
    const at = 1111111111 * 1000;
    const step = Math.floor(at / 30_000);
    expect(verifyTotp(SECRET, totpCode(SECRET, step - 1), { at })).toBe(step - 1);
    expect(verifyTotp(SECRET, totpCode(SECRET, step - 2), { at })).toBeNull();
    expect(verifyTotp(SECRET, totpCode(SECRET, step), { at, after: step })).toBeNull();
    expect(verifyTotp(SECRET, 'abcdef', { at })).toBeNull();
  });

  it('round-trips base32', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 9]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
  });
});
