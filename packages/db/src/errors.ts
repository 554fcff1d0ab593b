/** PostgreSQL's unique_violation, as postgres.js and PGlite both report it. */
const UNIQUE_VIOLATION = '23505';

interface PgErrorLike {
  code?: string;
  constraint?: string;
  constraint_name?: string;
  cause?: unknown;
}

/** True when `error` (or what drizzle wrapped in it) broke the named unique constraint. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e = error as PgErrorLike | undefined; e; e = e.cause as PgErrorLike | undefined) {
    if (e.code === UNIQUE_VIOLATION) return (e.constraint_name ?? e.constraint) === constraint;
  }
  return false;
}

/** PostgreSQL's check_violation. */
const CHECK_VIOLATION = '23514';

/** The check constraint `error` (or what drizzle wrapped in it) broke, if it broke one. */
export function brokenCheck(error: unknown): string | null {
  for (let e = error as PgErrorLike | undefined; e; e = e.cause as PgErrorLike | undefined) {
    if (e.code === CHECK_VIOLATION) return e.constraint_name ?? e.constraint ?? '';
  }
  return null;
}

// Network failures (postgres.js) and server states that mean "the database is not there".
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '57P01', // admin_shutdown (a fast or immediate stop)
  '57P02', // crash_shutdown (another backend crashed)
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);

/** True when `error` means the database cannot be reached, rather than a bad query. */
export function isUnavailable(error: unknown): boolean {
  for (let e = error as PgErrorLike | undefined; e; e = e.cause as PgErrorLike | undefined) {
    if (e.code && UNAVAILABLE.has(e.code)) return true;
  }
  return false;
}
