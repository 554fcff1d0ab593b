import { cleanMessage } from '@chorus/validators';

/** The most of one field a line keeps. */
const FIELD_MAX = 2000;

/**
 * A warning for whoever runs the worker, one JSON line on stderr: what went wrong on the wire
 * (a host, a socket's code, a platform's error), which the account never reads. Each text field
 * is cleaned as every third party's words are (docs/security.md, "Words from networks"): JSON
 * escapes C0 controls but passes C1 controls and bidirectional overrides to the terminal that
 * reads the log.
 */
export function warnOperator(msg: string, fields: Record<string, unknown>) {
  const clean = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      typeof value === 'string' ? cleanMessage(value, { max: FIELD_MAX }) : value,
    ]),
  );
  const line = { time: new Date().toISOString(), level: 'warn', msg, ...clean };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
