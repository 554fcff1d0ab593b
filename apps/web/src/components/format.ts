/** How the dashboard writes numbers and times: one way on every page. */
export const count = new Intl.NumberFormat('en').format;
export const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 2 })
  .format;
/** A number of things, singular for one: `counted(1, 'post', 'posts')` is "1 post". */
export const counted = (n: number, one: string, many: string) =>
  `${count(n)} ${n === 1 ? one : many}`;
/** A stored timestamp to the second, in UTC (the zone the API keeps), said as such. */
export const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
/** The same to the minute, for tables. */
export const utcMinute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const oneDecimal = new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format;
/** A file size in the binary units the upload limit is set in (25 MiB), bytes below 1 KiB. */
export function fileSize(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB'];
  if (bytes < 1024) return `${count(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${oneDecimal(value)} ${units[unit]}`;
}
