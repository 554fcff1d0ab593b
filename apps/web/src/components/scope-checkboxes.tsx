import { SCOPES } from '@chorus/validators';

/** The scope picker of the dashboard's forms: submits each checked scope as `scopes`. */
export function ScopeCheckboxes({ legend }: { legend: string }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div className="checks">
        {SCOPES.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === 'read'} />
            <code>{scope}</code>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
