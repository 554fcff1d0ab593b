'use client';

import { useActionState } from 'react';
import { ScopeCheckboxes } from '~/components/scope-checkboxes';
import { CopyButton, OneTimeSecret } from '~/components/copy-button';
import { createApp, rotateSecret, type AppSecretState } from './actions';

export function CreateAppForm() {
  const [state, action, pending] = useActionState<AppSecretState, FormData>(createApp, {});
  return (
    <section className="panel">
      <h2>Register an application</h2>
      {state.clientId && (
        <div className="secret" role="status">
          <strong>Registered</strong>
          <div className="secret-row">
            <span>Client ID</span>
            <code data-testid="new-client-id">{state.clientId}</code>
            <CopyButton value={state.clientId} />
          </div>
        </div>
      )}
      {state.secret && <OneTimeSecret label="Client secret" value={state.secret} />}
      <form action={action} className="form">
        <label>
          Name
          <input name="name" required maxLength={100} placeholder="e.g. Scheduler app" />
        </label>
        <label>
          Redirect URIs
          <span className="muted">
            One per line, matched exactly. https, or http on localhost for development.
          </span>
          <textarea
            name="redirectUris"
            rows={3}
            required
            placeholder="https://app.example.com/oauth/callback"
          />
        </label>
        <ScopeCheckboxes legend="Allowed scopes" />
        <fieldset>
          <legend>Client type</legend>
          <label className="check">
            <input type="radio" name="type" value="confidential" defaultChecked />
            Confidential — a server that keeps a client secret
          </label>
          <label className="check">
            <input type="radio" name="type" value="public" />
            Public — a browser or mobile app; no secret, PKCE required
          </label>
        </fieldset>
        {state.error && (
          <p className="error" role="alert">
            {state.error}
          </p>
        )}
        <button className="primary" type="submit" disabled={pending}>
          Register
        </button>
      </form>
    </section>
  );
}

export function RotateSecretForm({ clientId }: { clientId: string }) {
  const [state, action, pending] = useActionState<AppSecretState, FormData>(rotateSecret, {});
  return (
    <form action={action} className="inline">
      <input type="hidden" name="clientId" value={clientId} />
      <button type="submit" className="secondary" disabled={pending}>
        Rotate secret
      </button>
      {state.secret && <OneTimeSecret label="New client secret" value={state.secret} />}
      {state.error && <p className="error">{state.error}</p>}
    </form>
  );
}
