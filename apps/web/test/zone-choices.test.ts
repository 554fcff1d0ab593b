import { listedTimeZones } from '@chorus/validators';
import { describe, expect, it } from 'vitest';
import { zoneChoices } from '../src/app/dashboard/settings/zone-choices';

describe('the time zones the setting offers', () => {
  it('are those the server lists, UTC among them, sorted and named in words', () => {
    const choices = zoneChoices(listedTimeZones(), 'UTC');
    const values = choices.map((choice) => choice.value);
    expect(values).toEqual([...values].sort());
    expect(values).toContain('UTC');
    expect(values).toContain('Europe/Berlin');
    expect(choices.find((c) => c.value === 'America/New_York')?.label).toBe('America/New York');
  });

  it('keep the current zone selectable where the runtime lists it under another name', () => {
    const values = zoneChoices(['Asia/Calcutta', 'UTC'], 'Asia/Kolkata').map((c) => c.value);
    expect(values).toEqual(['Asia/Calcutta', 'Asia/Kolkata', 'UTC']);
  });
});
