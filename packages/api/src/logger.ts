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
