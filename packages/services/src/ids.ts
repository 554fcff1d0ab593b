import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `prefix_` + a ULID: 48 bits of milliseconds then 80 random bits in Crockford base32, so
 * ids sort by creation time and cannot be guessed (decisions §4).
 */
export function newId(
  prefix:
    | 'acc'
    | 'usr'
    | 'key'
    | 'post'
    | 'med'
    | 'whk'
    | 'evt'
    | 'aev'
    | 'app'
    | 'del'
    | 'grt'
    | 'tok',
): string {
  let time = Date.now();
  let timePart = '';
  for (let i = 0; i < 10; i++) {
    timePart = CROCKFORD.charAt(time % 32) + timePart;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(10);
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  let randomPart = '';
  for (let i = 0; i < 16; i++) {
    randomPart = CROCKFORD.charAt(Number(bits & 31n)) + randomPart;
    bits >>= 5n;
  }
  return `${prefix}_${timePart}${randomPart}`;
}
