/**
 * CSV cells safe to open in a spreadsheet (OWASP "CSV Injection"): a cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula, so it gets a
 * leading `'`, which spreadsheets show as text. An import takes that `'` off again, so an
 * export imports back as it was.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export const safeCell = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);

/** The cell as written before `safeCell` (only a `'` that `safeCell` would have added). */
export const unsafeCell = (value: string) =>
  value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;

/** A list in one cell (tags, channels): comma-separated, each item trimmed, empty ones dropped. */
export const splitList = (cell: string) =>
  cell
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
