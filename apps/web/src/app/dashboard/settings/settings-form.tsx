'use client';

import type { AccountSettings } from '@chorus/validators';
import { Field } from '~/components/field';
import { useToastAction } from '~/components/toast';
import { saveSettings } from './actions';

/** The admin's form: a refusal shows beside its field, with what was typed kept. */
export function SettingsForm({ settings, zones }: { settings: AccountSettings; zones: string[] }) {
  const [result, run, pending] = useToastAction(saveSettings);
  const typed = result.values;
  return (
    <form action={run} className="form" key={result.at}>
      <Field
        label="Time zone"
        name="timeZone"
        required
        list="time-zones"
        autoComplete="off"
        defaultValue={typed?.timeZone ?? settings.timeZone}
        hint="An IANA name, such as Europe/Berlin. Used by the calendar, posting slots and recurring posts."
        error={result.fields?.timeZone}
      />
      <datalist id="time-zones">
        {zones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <label className="check">
        <input
          type="checkbox"
          name="requireApproval"
          defaultChecked={typed ? typed.requireApproval === 'on' : settings.requireApproval}
        />
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
