/** The rules the composer offers, in words: the post page says a series' rule the same way. */
export const REPEATS = [
  { value: 'FREQ=DAILY', label: 'Every day' },
  { value: 'FREQ=WEEKLY', label: 'Every week' },
  { value: 'FREQ=MONTHLY', label: 'Every month' },
];

/** A series' rule in words; one set through the API that is none of these, as it was set. */
export const repeatsInWords = (rule: string) =>
  REPEATS.find((option) => option.value === rule)?.label ?? `As set: ${rule}`;
