import type { Answer } from './faults';

/** One route of a stand-in: method, path pattern (anchored) and its handler. */
export type RouteEntry<C> = [
  method: string,
  path: RegExp,
  handler: (ctx: C, match: RegExpExecArray) => Answer | Promise<Answer>,
];

/** The handler for `method path`, with the path's captures; undefined when none matches. */
export function findRoute<C>(routes: RouteEntry<C>[], method: string, path: string) {
  for (const [routeMethod, pattern, handler] of routes) {
    const match = routeMethod === method ? pattern.exec(path) : null;
    if (match) return (ctx: C) => handler(ctx, match);
  }
  return undefined;
}

/** A fixed-window request counter per key, the way networks count against their rate limits. */
export class RateWindows {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  hit(key: string, now = Date.now()) {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetAt: window.start + this.windowMs,
      exceeded: window.count > this.limit,
    };
  }
}

/** Each post with its media records, as tests read what a stand-in published. */
export function withMedia<P extends { mediaIds: string[] }, M>(
  posts: Iterable<P>,
  media: Map<string, M>,
) {
  return [...posts].map((post) => ({
    ...post,
    media: post.mediaIds.flatMap((id) => {
      const item = media.get(id);
      return item ? [item] : [];
    }),
  }));
}
