import { vi } from 'vitest';

/**
 * What the process writes to stderr from now on (the worker's lines for the operator), one
 * parsed JSON line each, still written through; the spy ends with the test's `restoreAllMocks`.
 */
export function operatorLog() {
  const lines: Record<string, unknown>[] = [];
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
    const text = String(chunk);
    if (text.startsWith('{')) lines.push(JSON.parse(text) as Record<string, unknown>);
    return write(chunk, ...(rest as []));
  });
  return lines;
}
