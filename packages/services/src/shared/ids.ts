import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one call into the system's random
 * source per ~400 ids or request ids rather than one each (≈2 % of a small request's time).
 * The one source of ids and labels; never for secrets (tokens, keys, IVs), which take their
 * own `randomBytes` so that no two share a buffer.
 */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;
export function randomFromPool(size: number): Buffer {
  if (offset + size > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  offset += size;
  return pool.subarray(offset - size, offset);
}

/**
 * `prefix_` + a ULID: 48 bits of milliseconds then 80 random bits in Crockford base32, so
 * ids sort by creation time and cannot be guessed (docs/api.md).
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
    | 'att'
    | 'app'
    | 'del'
    | 'grt'
    | 'tok'
    | 'chn'
    | 'tgt'
    | 'act',
): string {
  let time = Date.now();
  let timePart = '';
  for (let i = 0; i < 10; i++) {
    timePart = CROCKFORD.charAt(time % 32) + timePart;
    time = Math.floor(time / 32);
  }
  // 80 random bits as 16 characters of 5 bits: two runs of 40 bits (5 bytes), in plain numbers.
  const random = randomFromPool(10);
  let randomPart = '';
  for (const start of [0, 5]) {
    let bits = 0;
    for (let i = start; i < start + 5; i++) bits = bits * 256 + (random[i] ?? 0);
    for (let i = 0; i < 8; i++) {
      randomPart += CROCKFORD.charAt(bits % 32);
      bits = Math.floor(bits / 32);
    }
  }
  return `${prefix}_${timePart}${randomPart}`;
}
