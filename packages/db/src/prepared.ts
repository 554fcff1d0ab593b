import type { Db } from './client';

/**
 * A query built and prepared once per database (`build` uses `sql.placeholder` for what
 * varies, and ends with `.prepare(name)`), for hot paths: each call then skips building the
 * SQL, and the server keeps its plan.
 */
export function preparedPerDb<T, D extends object = Db>(build: (db: D) => T): (db: D) => T {
  const prepared = new WeakMap<D, T>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) {
      query = build(db);
      prepared.set(db, query);
    }
    return query;
  };
}

/**
 * The statements of a query whose text depends on its shape (which filters it has, how it
 * pages): `build` makes a shape's statement (named by `nameOf`, the key) once, and that
 * prepares it once per database.
 */
export function preparedPerShape<S, T, D extends object = Db>(
  nameOf: (shape: S) => string,
  build: (shape: S, name: string) => (db: D) => T,
): (db: D, shape: S) => T {
  const byName = new Map<string, (db: D) => T>();
  return (db, shape) => {
    const name = nameOf(shape);
    let statement = byName.get(name);
    if (!statement) {
      statement = build(shape, name);
      byName.set(name, statement);
    }
    return statement(db);
  };
}
