'use client';

import { SCOPES } from '@chorus/validators';
import { useActionState } from 'react';
import { OneTimeSecret } from '~/components/copy-button';
import { createKey, type CreateKeyState } from './actions';

export function CreateKeyForm() {
  const [state, action, pending] = useActionState<CreateKeyState, FormData>(createKey, {});
  return (
    <section className="panel">
      <h2>Create a key</h2>
      {state.secret && (
        <OneTimeSecret label={`Your new key “${state.name}”`} value={state.secret} />
      )}
      <form action={action} className="form">
        <label>
          Name
          <input name="name" required maxLength={100} placeholder="e.g. CI deploy" />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          <div className="checks">
            {SCOPES.map((scope) => (
              <label key={scope} className="check">
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  defaultChecked={scope === 'read'}
                />
                <code>{scope}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="row">
          <label>
            Environment
            <select name="environment" defaultValue="live">
              <option value="live">Live (csk_live_…)</option>
              <option value="test">Test (csk_test_…)</option>
            </select>
          </label>
          <label>
            Expires (optional)
            <input name="expiresAt" type="date" />
          </label>
        </div>
        {state.error && (
          <p className="error" role="alert">
            {state.error}
          </p>
        )}
        <button className="primary" type="submit" disabled={pending}>
          Create key
        </button>
      </form>
    </section>
  );
}
