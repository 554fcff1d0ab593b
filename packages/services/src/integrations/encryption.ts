import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readEncryptionKey } from './settings';

/**
 * AES-256-GCM for secrets at rest. A sealed value is `v1.` + base64url(iv | tag | ciphertext);
 * the version leaves room for key rotation. `context` (e.g. the account and integration) is
 * authenticated data: a ciphertext copied into another row does not decrypt there.
 */
const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

let cached: { value: string | undefined; key: Buffer } | undefined;

/** The configured key, read once per value of the variable; warns once about the dev key. */
function currentKey(): Buffer {
  const value = process.env.CHORUS_ENCRYPTION_KEY;
  if (cached && cached.value === value) return cached.key;
  const { key, development } = readEncryptionKey();
  if (development) {
    process.emitWarning(
      'CHORUS_ENCRYPTION_KEY is not set: using the development key for third-party credentials.',
      { code: 'CHORUS_DEVELOPMENT_KEY' },
    );
  }
  cached = { value, key };
  return key;
}

export function seal(plaintext: string, context: string, key: Buffer = currentKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plaintext; throws when the value was tampered with, or sealed with another key or context. */
export function unseal(sealed: string, context: string, key: Buffer = currentKey()): string {
  if (!sealed.startsWith(VERSION)) throw new Error('unknown sealed-value version');
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  const body = raw.subarray(IV_BYTES + TAG_BYTES);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
