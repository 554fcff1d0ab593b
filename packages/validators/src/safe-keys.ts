/**
 * Keys that, written onto an ordinary object, reach its prototype (`__proto__`) or shadow what
 * code reads through it (`constructor`, `prototype`). Objects built from a client's keys refuse
 * them and are built on `Object.create(null)` as well, so no key can reach `Object.prototype`.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export const isForbiddenKey = (key: string) => FORBIDDEN_KEYS.has(key);

/** A record with no prototype, for keys that come from a client. */
export const safeRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** Thrown when client input names a forbidden key; `key` is the offending key. */
export class ForbiddenKeyError extends Error {
  constructor(readonly key: string) {
    super(`The key "${key}" is not allowed.`);
  }
}

/**
 * `JSON.parse` that refuses forbidden keys at any depth. (JSON.parse itself defines
 * `__proto__` as an own key, but a later merge or `Object.assign` of the result would not.)
 */
export function parseJsonSafely(text: string): unknown {
  return JSON.parse(text, function (this: unknown, key: string, value: unknown) {
    if (isForbiddenKey(key)) throw new ForbiddenKeyError(key);
    return value;
  });
}
