'use client';

import type { AccountSettings } from '@chorus/validators';
import { SelectField } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { saveSettings } from './actions';
import { zoneChoices } from './zone-choices';

/**
 * The admin's form: a refusal shows beside its field, with what was typed kept. The time zone
 * is picked from those the server accepts (`zones`), never typed: a typo cannot be saved.
 */
export function SettingsForm({ settings, zones }: { settings: AccountSettings; zones: string[] }) {
  const { result, form, pending } = useFormAction(saveSettings);
  return (
    <form {...form} className="form">
      <SelectField
        label="Time zone"
        name="timeZone"
        options={zoneChoices(zones, settings.timeZone)}
        defaultValue={settings.timeZone}
        hint="Used by the calendar, posting slots and recurring posts."
        error={result.fields?.timeZone}
      />
      <label className="check">
        <input type="checkbox" name="requireApproval" defaultChecked={settings.requireApproval} />
        Members&apos; posts need an admin&apos;s approval
      </label>
      {result.error && !Object.keys(result.fields ?? {}).length && (
        <p className="error" role="alert">
          {result.error}
        </p>
      )}
      <button type="submit" className="primary" disabled={pending}>
        Save settings
      </button>
    </form>
  );
}
