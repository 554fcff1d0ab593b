/** Lists equal item by item, in order (a post's tags, a webhook's event types): order counts. */
export const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);
