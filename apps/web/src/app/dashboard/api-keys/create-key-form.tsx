'use client';

import { useActionState } from 'react';
import { ScopeCheckboxes } from '~/components/scope-checkboxes';
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
        <ScopeCheckboxes legend="Scopes" />
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
