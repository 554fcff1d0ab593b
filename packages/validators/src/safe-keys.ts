/**
 * Keys that, written onto an ordinary object, reach its prototype (`__proto__`) or shadow what
 * code reads through it (`constructor`, `prototype`). Objects built from a client's keys refuse
 * them and are built on `Object.create(null)` as well, so no key can reach `Object.prototype`.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export const isForbiddenKey = (key: string) => FORBIDDEN_KEYS.has(key);

/** A record with no prototype, for keys that come from a client. */
export const safeRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/**
 * Thrown when client input names a forbidden key: `path` leads to the first one met reading
 * the input from its start (`['meta', 'constructor']`), `key` is that key.
 */
export class ForbiddenKeyError extends Error {
  readonly key: string;
  constructor(readonly path: (string | number)[]) {
    const key = String(path[path.length - 1] ?? '');
    super(`The key "${key}" is not allowed.`);
    this.key = key;
  }
}

/** A value met walking the input, with the key it was met under (none at the top). */
interface Met {
  value: unknown;
  key?: string;
  parent?: Met;
}

/** The path of the first forbidden key in `value`, depth first in the order of its keys. */
function firstForbidden(value: unknown): (string | number)[] | null {
  // A stack of its own, not recursion, and each value linked to its parent rather than given
  // a copy of its path: a body is only depth-checked on some doors, and 64 KiB of `[` is
  // 65,536 levels.
  const stack: Met[] = [{ value }];
  for (let met = stack.pop(); met; met = stack.pop()) {
    // A key is met when its value is: after every key before it and all they hold.
    if (met.key !== undefined && isForbiddenKey(met.key)) return pathOf(met);
    const node = met.value;
    if (typeof node !== 'object' || node === null) continue;
    // Pushed last to first, so that the first is looked into first (one push each: a spread
    // of a body's hundred thousand keys would overflow the call's arguments).
    // A plain value under an allowed key holds nothing to look at: not pushed.
    const keys = Object.keys(node);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const child: unknown = (node as Record<string, unknown>)[key];
      if ((typeof child === 'object' && child !== null) || isForbiddenKey(key)) {
        stack.push({ value: child, key, parent: met });
      }
    }
  }
  return null;
}

/** The keys from the top down to `met`; a list's item by its index, a number (`targets[0]`). */
function pathOf(met: Met): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Met | undefined = met; at?.key !== undefined; at = at.parent) {
    path.unshift(Array.isArray(at.parent?.value) ? Number(at.key) : at.key);
  }
  return path;
}

/**
 * `JSON.parse` that refuses forbidden keys at any depth, naming the first one as a reader of
 * the text meets it, by its full path. (JSON.parse defines `__proto__` as an own key, which
 * is harmless here; a later merge or `Object.assign` of the result would not be.)
 */
export function parseJsonSafely(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const forbidden = firstForbidden(value);
  if (forbidden) throw new ForbiddenKeyError(forbidden);
  return value;
}
