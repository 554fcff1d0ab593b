import type { Db } from './client';

/**
 * A query built and prepared once per database (`build` uses `sql.placeholder` for what
 * varies, and ends with `.prepare(name)`), for hot paths: each call then skips building the
 * SQL, and the server keeps its plan.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const prepared = new WeakMap<Db, T>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) {
      query = build(db);
      prepared.set(db, query);
    }
    return query;
  };
}
