/** How the dashboard writes numbers and times: one way on every page. */
export const count = new Intl.NumberFormat('en').format;
export const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 2 })
  .format;
/** A stored timestamp to the second, in UTC (the zone the API keeps), said as such. */
export const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
