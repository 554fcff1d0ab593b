export * from 'drizzle-orm/sql';
export { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
export * from './schema';
export { openDatabase, type Database, type DatabaseOptions, type Db } from './client';
export { brokenCheck, isUnavailable, isUniqueViolation } from './errors';
export { preparedPerDb, preparedPerShape } from './prepared';
export { QUEUE_SCHEMA, queueHeartbeatAge } from './queue';
export {
  asRead,
  field,
  qualified,
  readRows,
  rowStatement,
  type Field,
  type Fields,
  type RowOf,
  type RowReader,
  type RowStatement,
} from './rows';
