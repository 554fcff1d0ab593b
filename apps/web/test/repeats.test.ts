import { describe, expect, it } from 'vitest';
import { skippedMonthsNote } from '../src/app/dashboard/posts/repeats';

describe('the note beside a monthly rule', () => {
  it('says months without the start’s day are skipped, from the 29th to the 31st', () => {
    expect(skippedMonthsNote('FREQ=MONTHLY', '2027-01-31T09:00')).toBe(
      'Starts on the 31st: months without a 31st are skipped.',
    );
    expect(skippedMonthsNote('FREQ=MONTHLY;COUNT=6', '2027-01-29T09:00')).toMatch(/29th/);
    expect(skippedMonthsNote('FREQ=MONTHLY;INTERVAL=2', '2027-03-30T09:00')).toMatch(/30th/);
  });

  it('says nothing of an earlier day, another rule, a rule by weekday or no time', () => {
    expect(skippedMonthsNote('FREQ=MONTHLY', '2027-01-28T09:00')).toBeNull();
    expect(skippedMonthsNote('FREQ=WEEKLY', '2027-01-31T09:00')).toBeNull();
    expect(skippedMonthsNote('FREQ=MONTHLY;BYDAY=-1FR', '2027-01-31T09:00')).toBeNull();
    expect(skippedMonthsNote('FREQ=MONTHLY', '')).toBeNull();
    expect(skippedMonthsNote(null, '2027-01-31T09:00')).toBeNull();
  });
});
