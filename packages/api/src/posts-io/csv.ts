/**
 * CSV cells safe to open in a spreadsheet (OWASP "CSV Injection"): a cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula, so it gets a
 * leading `'`, which spreadsheets show as text. An import takes that `'` off again, so a
 * cell's text imports back as it was.
 *
 * A cell that already starts with `'` gets one too: were it left alone, a stored `'=x` would
 * be exported as `'=x` and imported back as `=x`. With it, the import's rule is exactly the
 * inverse of the export's (take off a `'` followed by one of these characters, `'` included),
 * so any stored text survives the round trip.
 */
const GUARDED_START = /^[=+\-@\t\r']/;

export const safeCell = (value: string) => (GUARDED_START.test(value) ? `'${value}` : value);

/** The cell as written before `safeCell` (only a `'` that `safeCell` would have added). */
export const unsafeCell = (value: string) =>
  value.startsWith("'") && GUARDED_START.test(value.slice(1)) ? value.slice(1) : value;

/** A list in one cell (tags, channels): comma-separated, each item trimmed, empty ones dropped. */
export const splitList = (cell: string) =>
  cell
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
