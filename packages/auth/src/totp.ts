import { createHmac, randomBytes } from 'node:crypto';
import { constantTimeEqual } from './tokens';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) as authenticator apps
 * implement them: HMAC-SHA1, 6 digits, 30-second steps, the secret in base32 (RFC 4648).
 */
const STEP_SECONDS = 30;
const DIGITS = 6;
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = B32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 160 bits, the size RFC 4226 recommends for HMAC-SHA1. */
export const generateTotpSecret = () => base32Encode(randomBytes(20));

export const totpStep = (at: number = Date.now()) => Math.floor(at / 1000 / STEP_SECONDS);

/** The code of `secret` at time step `step` (RFC 4226 §5.3 dynamic truncation). */
export function totpCode(secret: string, step: number = totpStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 15;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0');
}

/**
 * The time step a code matches, one step of clock drift allowed either way (RFC 6238 §5.2),
 * or null. Steps at or before `after` are refused, so a code cannot be replayed.
 */
export function verifyTotp(
  secret: string,
  code: string,
  opts: { at?: number; after?: number | null } = {},
): number | null {
  const given = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(given)) return null;
  const now = totpStep(opts.at);
  for (const step of [now - 1, now, now + 1]) {
    if (opts.after != null && step <= opts.after) continue;
    if (constantTimeEqual(totpCode(secret, step), given)) return step;
  }
  return null;
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(opts: { secret: string; account: string; issuer: string }): string {
  const label = encodeURIComponent(`${opts.issuer}:${opts.account}`);
  const query = new URLSearchParams({
    secret: opts.secret,
    issuer: opts.issuer,
    algorithm: 'SHA1',
    digits: String(DIGITS),
    period: String(STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query}`;
}
