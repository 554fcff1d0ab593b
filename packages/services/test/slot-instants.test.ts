import { describe, expect, it } from 'vitest';
import { slotInstants } from '../src/publishing/slots';

/** Weekly slots are wall-clock times in the account's zone, across daylight-saving changes. */
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('slotInstants', () => {
  it('keeps 09:00 local on both sides of the spring change in Europe/Berlin', () => {
    // Sunday 29 March 2026: clocks go from 02:00 CET to 03:00 CEST.
    const slots = [
      { day: 'saturday', time: '09:00' },
      { day: 'monday', time: '09:00' },
    ] as const;
    const from = new Date('2026-03-27T12:00:00Z');
    expect(iso(slotInstants([...slots], 'Europe/Berlin', from, 4))).toEqual([
      '2026-03-28T08:00:00.000Z', // 09:00 CET (+01:00)
      '2026-03-30T07:00:00.000Z', // 09:00 CEST (+02:00)
    ]);
  });

  it('moves a slot the spring change skips an hour later, and takes a repeated one once', () => {
    const skipped = slotInstants(
      [{ day: 'sunday', time: '02:30' }],
      'Europe/Berlin',
      new Date('2026-03-28T00:00:00Z'),
      2,
    );
    expect(iso(skipped)).toEqual(['2026-03-29T01:30:00.000Z']); // 03:30 CEST
    // Sunday 25 October 2026: 02:30 happens twice; the slot is once, in standard time.
    const repeated = slotInstants(
      [{ day: 'sunday', time: '02:30' }],
      'Europe/Berlin',
      new Date('2026-10-24T00:00:00Z'),
      2,
    );
    expect(iso(repeated)).toEqual(['2026-10-25T01:30:00.000Z']); // 02:30 CET
  });

  it('keeps 17:30 local across both changes in America/New_York', () => {
    const slots = [{ day: 'friday', time: '17:30' } as const];
    // Sunday 8 March 2026 (EST → EDT) and Sunday 1 November 2026 (EDT → EST).
    expect(
      iso(slotInstants(slots, 'America/New_York', new Date('2026-03-05T00:00:00Z'), 10)),
    ).toEqual(['2026-03-06T22:30:00.000Z', '2026-03-13T21:30:00.000Z']);
    expect(
      iso(slotInstants(slots, 'America/New_York', new Date('2026-10-29T00:00:00Z'), 10)),
    ).toEqual(['2026-10-30T21:30:00.000Z', '2026-11-06T22:30:00.000Z']);
  });

  it('lists only instants after `from`, soonest first, in UTC by default', () => {
    const from = new Date('2026-11-23T10:00:00Z'); // a Monday
    const slots = [
      { day: 'monday', time: '09:00' },
      { day: 'monday', time: '11:00' },
      { day: 'tuesday', time: '08:00' },
    ] as const;
    expect(iso(slotInstants([...slots], 'UTC', from, 1))).toEqual([
      '2026-11-23T11:00:00.000Z',
      '2026-11-24T08:00:00.000Z',
    ]);
  });
});
