const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

const threshold = () =>
  LEVELS[(process.env.LOG_LEVEL as keyof typeof LEVELS | undefined) ?? 'info'] ?? LEVELS.info;

/**
 * One JSON object per line on stdout. Callers pass identifiers and outcomes only, never
 * bodies or headers, so no password, key or token can reach a log line.
 */
export function log(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (LEVELS[level] < threshold()) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

/**
 * What an unexpected error was, for the log: the innermost cause (the driver's own error), as
 * drizzle's wrapper message repeats the query's parameters, which may hold personal data.
 */
export function describeError(error: unknown) {
  let root = error;
  while (root instanceof Error && root.cause instanceof Error) root = root.cause;
  if (!(root instanceof Error)) return { message: 'non-error thrown' };
  return {
    name: root.name,
    message: root.message,
    code: (root as { code?: string }).code,
    stack: root.stack,
  };
}
