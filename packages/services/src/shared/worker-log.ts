/**
 * A warning for whoever runs the worker, one JSON line on stderr: what went wrong on the wire
 * (a host, a socket's code, a platform's error), which the account never reads.
 */
export function warnOperator(msg: string, fields: Record<string, unknown>) {
  const line = { time: new Date().toISOString(), level: 'warn', msg, ...fields };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
