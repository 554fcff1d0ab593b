import type { ByteRange } from '@chorus/storage';

/**
 * The one byte range a `Range` header asks of a body of `size` bytes (RFC 9110 §14.2):
 * `bytes=first-last`, `bytes=first-` or `bytes=-suffix`, clipped to the body. `undefined` when
 * the whole body is to be sent: no header, one this server ignores (several ranges, another
 * unit, bad syntax, as the RFC allows), or an `If-Range` that is not the current strong ETag
 * (the client's copy is stale: it gets the whole new one). `'unsatisfiable'` when the range
 * starts past the end (416).
 */
export function requestedRange(
  range: string | null,
  ifRange: string | null,
  etag: string,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (range === null) return undefined;
  if (ifRange !== null && ifRange.trim() !== etag) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // The last `last` bytes; an empty suffix selects nothing.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
