import { createHash } from 'node:crypto';

/**
 * Record keys derived from the target, so that every attempt of a target writes the same
 * records and a retry finds what an earlier attempt wrote instead of posting again
 * (docs/publishing.md). A post's key must be a TID (app.bsky.feed.post has `"key": "tid"`;
 * https://atproto.com/specs/tid): 64 bits, the top one 0, then 53 bits of microseconds since
 * 1970 and a 10-bit clock id, in base32-sortable, 13 characters.
 *
 * The time is the target's creation (its id is `tgt_` + a ULID, whose first 48 bits are
 * milliseconds), so keys sort as posts do; the microseconds within that millisecond and the
 * clock id (20 bits) come from a hash of the target id, the part's index and `attempt`.
 * Targets of one account created in the same millisecond can still collide: the publisher
 * then moves on to the next `attempt`, which every retry walks in the same order.
 */

const BASE32_SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Milliseconds since 1970 of an id made of a prefix and a ULID; 0 for any other id. */
function createdMs(targetId: string): number {
  const ulid = targetId.slice(targetId.indexOf('_') + 1).toUpperCase();
  if (!ULID.test(ulid)) return 0;
  let ms = 0;
  for (const char of ulid.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(char);
  return ms;
}

/** `of`: what the hash is of, the target's id or its sendKey (a later revision of its text). */
export function recordKey(targetId: string, part: number, attempt = 0, of = targetId): string {
  const hash = createHash('sha256').update(`${of}\n${part}\n${attempt}`).digest();
  const micros = BigInt(createdMs(targetId)) * 1000n + BigInt(hash.readUInt16BE(0) % 1000);
  let value = (micros << 10n) | BigInt(hash.readUInt16BE(2) & 0x3ff);
  let key = '';
  for (let i = 0; i < 13; i++) {
    key = BASE32_SORTABLE.charAt(Number(value & 31n)) + key;
    value >>= 5n;
  }
  return key;
}

/** The TID's syntax (https://atproto.com/specs/tid), for tests and checks. */
export const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
