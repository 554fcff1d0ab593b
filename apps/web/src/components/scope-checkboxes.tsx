import { SCOPES } from '@chorus/validators';
import { useId } from 'react';

/**
 * The scope picker of the dashboard's forms: submits each checked scope as `scopes`; a refusal
 * of the scopes (`error`) shows under them, tied to the group for screen readers.
 */
export function ScopeCheckboxes({ legend, error }: { legend: string; error?: string }) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="checks">
        {SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === 'read'} />
            <code>{scope}</code>
          </label>
        ))}
      </div>
      {error && (
        <small id={`${id}-error`} className="error">
          {error}
        </small>
      )}
    </fieldset>
  );
}
