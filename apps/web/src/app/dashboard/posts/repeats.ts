/** The rules the composer offers, in words: the post page says a series' rule the same way. */
export const REPEATS = [
  { value: 'FREQ=DAILY', label: 'Every day' },
  { value: 'FREQ=WEEKLY', label: 'Every week' },
  { value: 'FREQ=MONTHLY', label: 'Every month' },
];

/** A series' rule in words; one set through the API that is none of these, as it was set. */
export const repeatsInWords = (rule: string) =>
  REPEATS.find((option) => option.value === rule)?.label ?? `As set: ${rule}`;

const ORDINALS = new Map([
  [29, '29th'],
  [30, '30th'],
  [31, '31st'],
]);

/**
 * What a monthly rule does from the 29th, 30th or 31st (`start`, the time field's
 * `YYYY-MM-DDTHH:mm`): RFC 5545 skips the months without that day rather than move to their
 * last, which no one guesses, so the form says it. Null for any other rule or day, and for a
 * rule by weekday (`BYDAY`), which has no day of the month.
 */
export function skippedMonthsNote(rule: string | null, start: string | undefined): string | null {
  if (!rule || !start) return null;
  const parts = new Map(
    rule.split(';').map((part) => part.split('=') as [string, string | undefined]),
  );
  if (parts.get('FREQ') !== 'MONTHLY' || parts.has('BYDAY')) return null;
  const day = ORDINALS.get(Number(/^\d{4}-\d{2}-(\d{2})/.exec(start)?.[1]));
  return day ? `Starts on the ${day}: months without a ${day} are skipped.` : null;
}
